// Run by migrate() after the schema, in batches of `$limit` until a batch marks fewer:
// Sources processed before the index version was recorded have no `embedded_with`,
// and a node without the property is in no range index, so stale_index could not seek
// them. They get '' (no embedder: stale under every fingerprint). Raw Sources keep
// none (processing records it). The Source is locked first (a throwaway property
// write), so the value is read after any concurrent re-index committed: a fingerprint
// saved meanwhile is kept.
MATCH (s:Source)
WHERE s.embedded_with IS NULL AND s.processing_status <> 'raw'
WITH s
LIMIT $limit
SET s.just_locked = true
REMOVE s.just_locked
WITH s
SET s.embedded_with = coalesce(s.embedded_with, '')
RETURN count(s) AS marked
