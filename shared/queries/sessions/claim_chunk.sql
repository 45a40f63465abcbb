INSERT INTO cosmo_session_chunks
    (graph_user_id, session_id, first_seq, last_seq, source_key, claimed_at)
VALUES ($1, $2, $3, $4, $5, $6)
