SELECT entity_key FROM nodes WHERE user_id = $1 AND kind = $2 AND identity_name = $3 AND entity_type = $4
