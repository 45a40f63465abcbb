// consolidate-descriptions: dirty semantic links with their notes, the most recently
// accessed first (never accessed last), then by key.
MATCH (a)-[r:RELATES]->(b)
WHERE r.is_dirty = true
WITH a, r, b
ORDER BY r.last_accessed_at IS NULL, r.last_accessed_at DESC, r.rel_key
LIMIT $limit
RETURN a.entity_key AS from_key, b.entity_key AS to_key, properties(r) AS relationship
