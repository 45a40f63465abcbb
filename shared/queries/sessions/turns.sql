SELECT seq, speaker, text, spoken_at FROM cosmo_session_turns
WHERE graph_user_id = $1 AND session_id = $2 AND seq BETWEEN $3 AND $4
ORDER BY seq
