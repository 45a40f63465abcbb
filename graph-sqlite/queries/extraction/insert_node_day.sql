INSERT INTO node_days (entity_key, day) VALUES ($1, $2) ON CONFLICT DO NOTHING
