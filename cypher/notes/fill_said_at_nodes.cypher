// Run by migrate() in batches of `$limit` until a batch fills fewer: nodes whose notes
// were written before notes knew when they were said (no `note_said_at`) get it, one
// date per note in list order: a note taken from a Source was said at the Source's
// event time (`started_at`, else when it arrived); a consolidation insight (no source
// id) at the latest event time of the Sources its `derived_from` links name (a link
// recorded before note ids were kept: every `cosmo` insight of the node); a note whose
// Source is gone, when it was noted. The node is locked first (a throwaway property
// write), so a note appended meanwhile is read with the rest.
MATCH (x:Semantic)
WHERE x.note_said_at IS NULL
WITH x
LIMIT $limit
SET x.just_locked = true
REMOVE x.just_locked
WITH x
CALL (x) {
  UNWIND range(0, size(coalesce(x.note_ids, [])) - 1) AS i
  OPTIONAL MATCH (s:Source {entity_key: x.note_source_ids[i]})
  OPTIONAL MATCH (x)-[d:derived_from]->(ds:Source)
  WHERE x.note_source_ids[i] = ''
    AND (d.note_id = x.note_ids[i] OR (d.note_id IS NULL AND x.note_added_by[i] = 'cosmo'))
  WITH i, coalesce(s.started_at, s.created_at) AS told,
       max(coalesce(ds.started_at, ds.created_at)) AS derived
  ORDER BY i
  RETURN collect(coalesce(told, derived, x.note_dates[i])) AS said
}
SET x.note_said_at = said
RETURN count(x) AS filled
