DELETE FROM cosmo_session_turns
WHERE graph_user_id = $1 AND session_id = $2 AND seq BETWEEN $3 AND $4
