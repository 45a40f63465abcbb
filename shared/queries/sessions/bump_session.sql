INSERT INTO cosmo_sessions
    (graph_user_id, session_id, last_seq, flushed_seq, created_at, updated_at)
VALUES ($1, $2, $3, 0, $4, $4)
ON CONFLICT (graph_user_id, session_id) DO UPDATE
    SET last_seq = cosmo_sessions.last_seq + excluded.last_seq,
        updated_at = excluded.updated_at
RETURNING last_seq, flushed_seq, ended_at
