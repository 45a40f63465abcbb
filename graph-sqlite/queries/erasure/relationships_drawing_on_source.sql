SELECT rel_key FROM relationship_sources WHERE source_key = $1
UNION SELECT owner_key FROM notes WHERE source_id = $1 AND owner_kind = 'relationship'
