UPDATE cosmo_sessions
SET ended_at = COALESCE(ended_at, $3), updated_at = $3
WHERE graph_user_id = $1 AND session_id = $2
RETURNING last_seq, flushed_seq
