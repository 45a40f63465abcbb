SELECT * FROM sources WHERE entity_key = $1
