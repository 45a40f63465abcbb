INSERT INTO storyline_sources (storyline_id, source_key)
SELECT $1, entity_key FROM sources WHERE entity_key IN (SELECT value FROM json_each($2))
ON CONFLICT DO NOTHING
