// consolidate-descriptions: dirty semantic nodes with their notes, the most recently
// accessed first (never accessed last), then by key.
MATCH (n:Semantic)
WHERE n.is_dirty = true
WITH n
ORDER BY n.last_accessed_at IS NULL, n.last_accessed_at DESC, n.entity_key
LIMIT $limit
RETURN labels(n) AS labels, properties(n) AS node
