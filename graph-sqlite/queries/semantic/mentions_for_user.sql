SELECT source_key, entity_key, user_id FROM mentions WHERE user_id = $1
ORDER BY source_key, entity_key
