// text_search over Storylines (description) in scope. `$query` is built in Rust from
// plain words, each escaped and quoted for Lucene (never query syntax from input), per
// field with the SQLite store's column weights as boosts. The index streams every match
// in score order, not a top-k, so filtering to the scope afterwards loses nothing.
CALL db.index.fulltext.queryNodes('storyline_text', $query) YIELD node, score
WITH node AS st, score
WHERE st.user_id = $user_id
  AND (st.state <> 'archived' OR $include_archived)
  AND ($since IS NULL OR coalesce(st.last_source_at, st.created_at) >= $since)
  AND ($until IS NULL OR coalesce(st.last_source_at, st.created_at) < $until)
WITH st.storyline_id AS key, score
ORDER BY score DESC, key
LIMIT $limit
RETURN key, score
