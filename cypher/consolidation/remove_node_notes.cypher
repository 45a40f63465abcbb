// cleanup-notes, step 2: one row per node with the ids of expired notes to remove
// (at most the run's limit in all). The parallel note lists keep the same positions,
// so every list is filtered by the same indexes; a note is removed only if it is still
// there and expired. Returns how many notes went.
UNWIND $rows AS row
MATCH (x:Semantic {entity_key: row.target})
// Write-lock the target before reading its notes (the marker is removed at once; the
// lock lasts until commit), so a concurrent note write cannot be lost.
SET x.just_locked = true
WITH x, row
REMOVE x.just_locked
WITH x, row, coalesce(x.note_ids, []) AS ids, coalesce(x.note_expires_at, []) AS expires
WITH x, [i IN range(0, size(ids) - 1) WHERE NOT (ids[i] IN row.note_ids AND expires[i] <= $now)] AS keep, size(ids) AS before
WHERE size(keep) < before
SET x.note_ids = [i IN keep | x.note_ids[i]],
    x.note_texts = [i IN keep | x.note_texts[i]],
    x.note_added_by = [i IN keep | x.note_added_by[i]],
    x.note_source_ids = [i IN keep | x.note_source_ids[i]],
    x.note_dates = [i IN keep | x.note_dates[i]],
    x.note_said_at = [i IN keep | coalesce(x.note_said_at[i], x.note_dates[i])],
    x.note_lifetimes = [i IN keep | x.note_lifetimes[i]],
    x.note_expires_at = [i IN keep | x.note_expires_at[i]]
RETURN sum(before - size(keep)) AS removed
