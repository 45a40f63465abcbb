SELECT * FROM nodes WHERE entity_key = $1
