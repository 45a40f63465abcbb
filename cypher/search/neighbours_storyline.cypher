// neighbours: the user's Storylines in scope about a seed node (score 1), the most
// recent first.
UNWIND $seeds AS seed
MATCH (st:Storyline)-[:about]->(:Semantic {entity_key: seed})
WHERE st.user_id = $user_id
  AND (st.state <> 'archived' OR $include_archived)
  AND ($since IS NULL OR coalesce(st.last_source_at, st.created_at) >= $since)
  AND ($until IS NULL OR coalesce(st.last_source_at, st.created_at) < $until)
WITH DISTINCT st
WITH st.storyline_id AS key, 1.0 AS score, [st.anchor_key] AS via, coalesce(st.last_source_at, st.created_at) AS at
ORDER BY at DESC, key
LIMIT $limit
RETURN key, score, via
