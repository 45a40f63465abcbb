// text_search over Macros (description) in scope. `$query` is built in Rust from plain
// words, each escaped and quoted for Lucene (never query syntax from input), per field
// with the SQLite store's column weights as boosts. The index streams every match in
// score order, not a top-k, so filtering to the scope afterwards loses nothing.
CALL db.index.fulltext.queryNodes('macro_text', $query) YIELD node, score
WITH node AS m, score
WHERE m.user_id = $user_id
  AND (m.state <> 'archived' OR $include_archived)
  AND ($since IS NULL OR coalesce(m.last_event_at, m.created_at) >= $since)
  AND ($until IS NULL OR coalesce(m.last_event_at, m.created_at) < $until)
WITH m.macro_id AS key, score
ORDER BY score DESC, key
LIMIT $limit
RETURN key, score
