// text_search over Sources for a user with more than `graph.neo4j.exact_search_max`
// (whose top-k over-fetch could not prove its answer), ranked by Lucene as the
// over-fetch is: reading such a user's words would cost too much (the users below it
// are ranked by `text_source`). Sources (summary, content, keywords) in scope. `$query` is built in
// Rust from plain words, each escaped and quoted for Lucene (never query syntax from
// input), per field with the SQLite store's column weights as boosts. The index streams
// every match in score order, not a top-k, so filtering to the scope afterwards loses
// nothing.
CALL db.index.fulltext.queryNodes('source_text', $query) YIELD node, score
WITH node AS s, score
WHERE (s.user_id = $user_id OR $user_id IN coalesce(s.participants, []))
  AND (s.state <> 'archived' OR $include_archived)
  AND ($since IS NULL OR coalesce(s.started_at, s.created_at) >= $since)
  AND ($until IS NULL OR coalesce(s.started_at, s.created_at) < $until)
WITH s.entity_key AS key, score
ORDER BY score DESC, key
LIMIT $limit
RETURN key, score
