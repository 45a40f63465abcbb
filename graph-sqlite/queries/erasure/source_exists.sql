SELECT entity_key FROM sources WHERE entity_key = $1
