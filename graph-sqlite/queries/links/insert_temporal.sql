INSERT INTO source_links (kind, from_key, to_key, user_id, confidence, created_at)
VALUES ('temporal', $1, $2, $3, 1.0, $4)
ON CONFLICT (kind, from_key, to_key) DO NOTHING
