SELECT entity_key FROM nodes WHERE user_id = $1
