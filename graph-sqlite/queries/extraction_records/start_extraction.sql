INSERT INTO extractions (source_key, user_id, status, requested_at, started_at, updated_at)
VALUES ($1, $2, 'in_progress', $3, $3, $3)
ON CONFLICT (source_key, user_id) DO UPDATE SET status = 'in_progress', started_at = $3,
  updated_at = $3 WHERE extractions.status <> 'extracted'
