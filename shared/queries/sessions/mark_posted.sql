UPDATE cosmo_session_chunks SET posted_at = $4
WHERE graph_user_id = $1 AND session_id = $2 AND first_seq = $3
    AND posted_at IS NULL
