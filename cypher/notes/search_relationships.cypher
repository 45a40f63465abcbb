// search_notes over the notes on semantic relationships, in scope. `$query` is built in
// Rust from plain words, each escaped and quoted for Lucene (never query syntax from
// input), on `note_texts`. The index scores a relationship by all its notes together
// and streams every match in score order, so filtering to the scope afterwards loses
// nothing. A relationship qualifies only with a note still live at `$at`
// (`note_expires_at` holds 9999-12-31T00:00:00Z for notes that never expire) and said
// in [$since, $until); the Rust code picks the notes that hold the words, paging on
// (`$skip`) while too few do. Insights are noted on nodes only: `derived` is always
// empty here.
CALL db.index.fulltext.queryRelationships('relates_note_text', $query) YIELD relationship, score
WITH relationship AS r, score
WHERE r.user_id = $user_id
  AND (r.state <> 'archived' OR $include_archived)
  AND any(i IN range(0, size(coalesce(r.note_ids, [])) - 1)
          WHERE r.note_expires_at[i] > $at
            AND ($since IS NULL OR coalesce(r.note_said_at[i], r.note_dates[i]) >= $since)
            AND ($until IS NULL OR coalesce(r.note_said_at[i], r.note_dates[i]) < $until))
WITH r, score
ORDER BY score DESC, r.rel_key
SKIP $skip
LIMIT $limit
WITH r, score, startNode(r) AS a, endNode(r) AS b
RETURN r.rel_key AS owner_key,
       a.entity_key AS from_key,
       coalesce(a.display_name, a.name) AS from_name,
       r.relationship_type AS relationship_type,
       b.entity_key AS to_key,
       coalesce(b.display_name, b.name) AS to_name,
       score,
       r {.note_ids, .note_texts, .note_added_by, .note_source_ids, .note_dates, .note_said_at,
          .note_lifetimes, .note_expires_at} AS notes,
       [] AS derived
