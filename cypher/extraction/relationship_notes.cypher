// Notes are parallel lists (no maps in properties, no nulls in lists): one row per
// target with its distinct new notes; a note whose id the target already holds is
// skipped, and the target is marked dirty only when a note was added.
// `note_expires_at` holds 9999-12-31T00:00:00Z for notes that never expire;
// `note_said_at` when each was said (the turn's time, else the Source's event time).
UNWIND $rows AS row
MATCH ()-[x:RELATES {rel_key: row.target}]->()
// Write-lock the target before reading its note ids (the marker is removed at once;
// the lock lasts until commit), so concurrent writes of one note add it once.
SET x.just_locked = true
WITH x, row
REMOVE x.just_locked
WITH x, row, [i IN range(0, size(row.note_ids) - 1) WHERE NOT (row.note_ids[i] IN coalesce(x.note_ids, []))] AS fresh
WHERE size(fresh) > 0
SET x.note_ids = coalesce(x.note_ids, []) + [i IN fresh | row.note_ids[i]],
    x.note_texts = coalesce(x.note_texts, []) + [i IN fresh | row.note_texts[i]],
    x.note_added_by = coalesce(x.note_added_by, []) + [i IN fresh | $user_id],
    x.note_source_ids = coalesce(x.note_source_ids, []) + [i IN fresh | $source_key],
    x.note_dates = coalesce(x.note_dates, []) + [i IN fresh | $at],
    x.note_said_at = coalesce(x.note_said_at, x.note_dates, []) + [i IN fresh | row.note_said_at[i]],
    x.note_lifetimes = coalesce(x.note_lifetimes, []) + [i IN fresh | row.note_lifetimes[i]],
    x.note_expires_at = coalesce(x.note_expires_at, []) + [i IN fresh | row.note_expires_at[i]],
    x.is_dirty = true,
    x.updated_at = $at
RETURN sum(size(fresh)) AS added
