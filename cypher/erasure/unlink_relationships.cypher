// erase_source: the semantic links (of the users in `$user_ids`) drawn from the Source
// (it is in their provenance `source_keys`) or holding notes taken from it. Each is
// write-locked before its lists are read; the Source leaves its provenance and its
// notes leave the parallel lists (all eight filtered by the same kept positions).
// Returns the links and how many notes went.
MATCH ()-[x:RELATES]->()
WHERE x.user_id IN $user_ids
  AND ($source_key IN coalesce(x.source_keys, []) OR $source_key IN coalesce(x.note_source_ids, []))
SET x.just_locked = true
WITH x
REMOVE x.just_locked
WITH x, coalesce(x.note_source_ids, []) AS sources
WITH x, [i IN range(0, size(sources) - 1) WHERE sources[i] <> $source_key] AS keep, size(sources) AS before
SET x.source_keys = [k IN coalesce(x.source_keys, []) WHERE k <> $source_key],
    x.note_ids = [i IN keep | x.note_ids[i]],
    x.note_texts = [i IN keep | x.note_texts[i]],
    x.note_added_by = [i IN keep | x.note_added_by[i]],
    x.note_source_ids = [i IN keep | x.note_source_ids[i]],
    x.note_dates = [i IN keep | x.note_dates[i]],
    x.note_said_at = [i IN keep | coalesce(x.note_said_at[i], x.note_dates[i])],
    x.note_lifetimes = [i IN keep | x.note_lifetimes[i]],
    x.note_expires_at = [i IN keep | x.note_expires_at[i]]
RETURN collect(x.rel_key) AS keys, sum(before - size(keep)) AS removed
