SELECT user_id FROM sources WHERE entity_key = $1
