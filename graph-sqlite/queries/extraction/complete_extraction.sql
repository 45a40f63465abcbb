INSERT INTO extractions (source_key, user_id, status, requested_at, started_at, completed_at, updated_at)
VALUES ($1, $2, 'extracted', $3, $3, $3, $3)
ON CONFLICT (source_key, user_id) DO UPDATE SET status = 'extracted', completed_at = $3,
   error = NULL, updated_at = $3 WHERE extractions.status <> 'extracted'
