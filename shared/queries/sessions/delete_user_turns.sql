DELETE FROM cosmo_session_turns WHERE graph_user_id = $1
