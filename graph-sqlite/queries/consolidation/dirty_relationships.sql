SELECT * FROM relationships WHERE is_dirty = 1
ORDER BY last_accessed_at IS NULL, last_accessed_at DESC, rel_key LIMIT $1
