SELECT * FROM nodes WHERE is_dirty = 1
ORDER BY last_accessed_at IS NULL, last_accessed_at DESC, entity_key LIMIT $1
