// text_search over semantic nodes (names, description) in scope. `$query` is built in
// Rust from plain words, each escaped and quoted for Lucene (never query syntax from
// input), per field with the SQLite store's column weights as boosts. The index streams
// every match in score order, not a top-k, so filtering to the scope afterwards loses
// nothing.
CALL db.index.fulltext.queryNodes('semantic_text', $query) YIELD node, score
WITH node AS n, score
WHERE n.user_id = $user_id
  AND (n.state <> 'archived' OR $include_archived)
  AND ($since IS NULL OR coalesce(n.last_mentioned_at, n.created_at) >= $since)
  AND ($until IS NULL OR coalesce(n.last_mentioned_at, n.created_at) < $until)
WITH n.entity_key AS key, score
ORDER BY score DESC, key
LIMIT $limit
RETURN key, score
