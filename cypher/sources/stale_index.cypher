// The reconciler's scan for Sources whose index (summary embedding and passages)
// another embedder made: `embedded_with` differs from the current fingerprint, ''
// (none recorded, see mark_unindexed) included. `<>` cannot seek an index, so the two
// ranges below and above the fingerprint are two seeks of the `source_embedded_with`
// range index, and a scan that finds nothing stale reads nothing. Raw Sources have no
// `embedded_with` (processing records it) and are never listed.
CALL () {
  MATCH (s:Source)
  WHERE s.embedded_with < $embedded_with AND s.processing_status <> 'raw'
  RETURN s
  UNION ALL
  MATCH (s:Source)
  WHERE s.embedded_with > $embedded_with AND s.processing_status <> 'raw'
  RETURN s
}
WITH s
ORDER BY s.entity_key
LIMIT $limit
RETURN s.entity_key AS entity_key, s.user_id AS user_id, s.processing_status AS processing_status
