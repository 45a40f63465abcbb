INSERT INTO mentions (source_key, entity_key, user_id, created_at) VALUES ($1, $2, $3, $4)
ON CONFLICT DO NOTHING
