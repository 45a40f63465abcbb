// erase_source: the notes taken from the Source leave the parallel lists of the nodes
// (of the users in `$user_ids`) holding them. Each node is write-locked before its
// lists are read; all eight lists are filtered by the same kept positions. Returns
// the nodes and how many notes went.
MATCH (x:Semantic)
WHERE x.user_id IN $user_ids AND $source_key IN coalesce(x.note_source_ids, [])
SET x.just_locked = true
WITH x
REMOVE x.just_locked
WITH x, coalesce(x.note_source_ids, []) AS sources
WITH x, [i IN range(0, size(sources) - 1) WHERE sources[i] <> $source_key] AS keep, size(sources) AS before
SET x.note_ids = [i IN keep | x.note_ids[i]],
    x.note_texts = [i IN keep | x.note_texts[i]],
    x.note_added_by = [i IN keep | x.note_added_by[i]],
    x.note_source_ids = [i IN keep | x.note_source_ids[i]],
    x.note_dates = [i IN keep | x.note_dates[i]],
    x.note_said_at = [i IN keep | coalesce(x.note_said_at[i], x.note_dates[i])],
    x.note_lifetimes = [i IN keep | x.note_lifetimes[i]],
    x.note_expires_at = [i IN keep | x.note_expires_at[i]]
RETURN collect(x.entity_key) AS keys, sum(before - size(keep)) AS removed
