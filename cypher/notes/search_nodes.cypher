// search_notes over the notes on semantic nodes, in scope. `$query` is built in Rust
// from plain words, each escaped and quoted for Lucene (never query syntax from input),
// on `note_texts`. The index scores a node by all its notes together and streams every
// match in score order, so filtering to the scope afterwards loses nothing. A node
// qualifies only with a note still live at `$at` (`note_expires_at` holds
// 9999-12-31T00:00:00Z for notes that never expire) and said in [$since, $until); the
// Rust code picks the notes that hold the words, paging on (`$skip`) while too few do.
// `derived` pairs each `derived_from` link's note id ('' for a link recorded before
// note ids were kept) with its Source.
CALL db.index.fulltext.queryNodes('semantic_note_text', $query) YIELD node, score
WITH node AS n, score
WHERE n.user_id = $user_id
  AND (n.state <> 'archived' OR $include_archived)
  AND any(i IN range(0, size(coalesce(n.note_ids, [])) - 1)
          WHERE n.note_expires_at[i] > $at
            AND ($since IS NULL OR coalesce(n.note_said_at[i], n.note_dates[i]) >= $since)
            AND ($until IS NULL OR coalesce(n.note_said_at[i], n.note_dates[i]) < $until))
WITH n, score
ORDER BY score DESC, n.entity_key
SKIP $skip
LIMIT $limit
RETURN n.entity_key AS owner_key,
       coalesce(n.display_name, n.name) AS owner,
       score,
       n {.note_ids, .note_texts, .note_added_by, .note_source_ids, .note_dates, .note_said_at,
          .note_lifetimes, .note_expires_at} AS notes,
       [(n)-[d:derived_from]->(s:Source) | [coalesce(d.note_id, ''), s.entity_key]] AS derived
