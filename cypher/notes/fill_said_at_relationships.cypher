// Run by migrate() in batches of `$limit` until a batch fills fewer: semantic links
// whose notes were written before notes knew when they were said (no `note_said_at`)
// get it, one date per note in list order: the event time of the Source the note was
// taken from (`started_at`, else when it arrived), or when it was noted if that Source
// is gone. The link is locked first (a throwaway property write).
MATCH ()-[x:RELATES]->()
WHERE x.note_said_at IS NULL
WITH x
LIMIT $limit
SET x.just_locked = true
REMOVE x.just_locked
WITH x
CALL (x) {
  UNWIND range(0, size(coalesce(x.note_ids, [])) - 1) AS i
  OPTIONAL MATCH (s:Source {entity_key: x.note_source_ids[i]})
  WITH i, coalesce(s.started_at, s.created_at) AS told
  ORDER BY i
  RETURN collect(coalesce(told, x.note_dates[i])) AS said
}
SET x.note_said_at = said
RETURN count(x) AS filled
