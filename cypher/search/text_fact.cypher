// text_search over live facts (text, value) in scope. `$query` is built in Rust from
// plain words, each escaped and quoted for Lucene (never query syntax from input), per
// field with the SQLite store's column weights as boosts. The index streams every match
// in score order, not a top-k, so filtering to the scope afterwards loses nothing.
CALL db.index.fulltext.queryNodes('fact_text', $query) YIELD node, score
WITH node AS f, score
WHERE f.user_id = $user_id
  AND f.is_active
  AND (f.state <> 'archived' OR $include_archived)
  AND ($since IS NULL OR f.valid_from >= $since)
  AND ($until IS NULL OR f.valid_from < $until)
WITH f.fact_id AS key, score
ORDER BY score DESC, key
LIMIT $limit
RETURN key, score
