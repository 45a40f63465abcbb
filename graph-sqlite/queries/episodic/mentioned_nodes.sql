SELECT m.entity_key FROM mentions m JOIN nodes n ON n.entity_key = m.entity_key
WHERE m.source_key = $1 AND m.user_id = $2 AND n.is_owner = 0 ORDER BY m.entity_key
