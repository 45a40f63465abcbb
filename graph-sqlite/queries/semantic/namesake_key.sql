SELECT entity_key FROM nodes WHERE user_id = $1 AND kind = 'person' AND identity_name = $2
