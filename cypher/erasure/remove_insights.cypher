// erase_source: the consolidation insights drawn from the Source leave the nodes that
// derive from it: the note whose id the `derived_from` link records, or (a link
// recorded before note ids were kept) every insight by `$added_by` without a Source.
// Each node is write-locked before its lists are read. Returns how many notes went.
MATCH (x:Semantic)-[d:derived_from]->(:Source {entity_key: $source_key})
SET x.just_locked = true
WITH x, d
REMOVE x.just_locked
WITH x, d.note_id AS note_id, coalesce(x.note_ids, []) AS ids,
     coalesce(x.note_source_ids, []) AS sources, coalesce(x.note_added_by, []) AS authors
WITH x, size(ids) AS before,
     [i IN range(0, size(ids) - 1)
      WHERE NOT (CASE WHEN note_id IS NULL THEN sources[i] = '' AND authors[i] = $added_by
                      ELSE ids[i] = note_id END)] AS keep
WHERE size(keep) < before
SET x.note_ids = [i IN keep | x.note_ids[i]],
    x.note_texts = [i IN keep | x.note_texts[i]],
    x.note_added_by = [i IN keep | x.note_added_by[i]],
    x.note_source_ids = [i IN keep | x.note_source_ids[i]],
    x.note_dates = [i IN keep | x.note_dates[i]],
    x.note_lifetimes = [i IN keep | x.note_lifetimes[i]],
    x.note_expires_at = [i IN keep | x.note_expires_at[i]]
RETURN sum(before - size(keep)) AS removed
