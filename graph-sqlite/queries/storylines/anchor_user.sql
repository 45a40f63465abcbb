SELECT user_id FROM nodes WHERE entity_key = $1
