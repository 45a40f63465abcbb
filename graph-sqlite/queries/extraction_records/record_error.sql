UPDATE extractions SET status = $5, error = $3, updated_at = $4
WHERE source_key = $1 AND user_id = $2 AND status <> 'extracted'
