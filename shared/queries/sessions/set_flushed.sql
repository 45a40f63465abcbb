UPDATE cosmo_sessions SET flushed_seq = $3 WHERE graph_user_id = $1 AND session_id = $2
