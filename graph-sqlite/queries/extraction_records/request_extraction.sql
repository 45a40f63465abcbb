INSERT INTO extractions (source_key, user_id, status, requested_at, updated_at)
VALUES ($1, $2, 'pending', $3, $3)
ON CONFLICT (source_key, user_id) DO UPDATE SET status = 'pending', updated_at = $3
  WHERE extractions.status = 'failed'
