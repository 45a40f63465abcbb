// Episodic → semantic: the insight becomes a note on the node (author `$added_by`, no
// source id: the Sources are linked by `derived_from`). Its id is derived from the
// node, author and text, so it is added once; the node turns dirty only then.
// `$expires_at` is 9999-12-31T00:00:00Z for a note that never expires. The insight
// was said when the latest of its Sources (`$source_keys`) happened.
MATCH (n:Semantic {entity_key: $entity_key})
OPTIONAL MATCH (s:Source) WHERE s.entity_key IN $source_keys
WITH n, max(coalesce(s.started_at, s.created_at)) AS said
// Write-lock the node before reading its note ids (the marker is removed at once; the
// lock lasts until commit), so concurrent runs add the note once.
SET n.just_locked = true
WITH n, said
REMOVE n.just_locked
WITH n, said
WHERE NOT ($note_id IN coalesce(n.note_ids, []))
SET n.note_ids = coalesce(n.note_ids, []) + [$note_id],
    n.note_texts = coalesce(n.note_texts, []) + [$text],
    n.note_added_by = coalesce(n.note_added_by, []) + [$added_by],
    n.note_source_ids = coalesce(n.note_source_ids, []) + [''],
    n.note_dates = coalesce(n.note_dates, []) + [$at],
    n.note_said_at = coalesce(n.note_said_at, n.note_dates, []) + [coalesce(said, $at)],
    n.note_lifetimes = coalesce(n.note_lifetimes, []) + [$lifetime],
    n.note_expires_at = coalesce(n.note_expires_at, []) + [$expires_at],
    n.is_dirty = true,
    n.updated_at = $at
RETURN count(n) AS added
