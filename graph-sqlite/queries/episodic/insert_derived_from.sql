INSERT INTO derived_from (entity_key, source_key, user_id, created_at, note_id)
VALUES ($1, $2, $3, $4, $5) ON CONFLICT DO NOTHING
