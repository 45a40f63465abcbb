// erase_source: the consolidation insights drawn from the Source leave the nodes that
// derive from it: the notes whose ids its `derived_from` links record (one link per
// insight), or (a link recorded before note ids were kept) every insight by `$added_by`
// without a Source. Each node is write-locked before its lists are read. Returns how
// many notes went.
MATCH (x:Semantic)-[d:derived_from]->(:Source {entity_key: $source_key})
WITH x, collect(d.note_id) AS note_ids, count(d) AS links
SET x.just_locked = true
WITH x, note_ids, links
REMOVE x.just_locked
WITH x, note_ids, size(note_ids) < links AS legacy, coalesce(x.note_ids, []) AS ids,
     coalesce(x.note_source_ids, []) AS sources, coalesce(x.note_added_by, []) AS authors
WITH x, size(ids) AS before,
     [i IN range(0, size(ids) - 1)
      WHERE NOT (ids[i] IN note_ids
                 OR (legacy AND sources[i] = '' AND authors[i] = $added_by))] AS keep
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
