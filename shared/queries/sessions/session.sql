SELECT graph_user_id, session_id, last_seq, flushed_seq, created_at,
    updated_at, ended_at
FROM cosmo_sessions WHERE graph_user_id = $1 AND session_id = $2
