SELECT entity_key FROM mentions WHERE source_key = $1
UNION SELECT entity_key FROM derived_from WHERE source_key = $1
UNION SELECT owner_key FROM notes WHERE source_id = $1 AND owner_kind = 'node'
