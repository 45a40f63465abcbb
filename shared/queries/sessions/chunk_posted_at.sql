SELECT posted_at FROM cosmo_session_chunks
WHERE graph_user_id = $1 AND session_id = $2 AND first_seq = $3
