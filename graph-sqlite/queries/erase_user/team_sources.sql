SELECT entity_key FROM sources WHERE user_id = $1 ORDER BY entity_key
