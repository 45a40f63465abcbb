// neighbours: the user's Macros in scope rooted in a seed node (score 1), the most
// recent first.
UNWIND $seeds AS seed
MATCH (m:Macro)-[:rooted_in]->(:Semantic {entity_key: seed})
WHERE m.user_id = $user_id
  AND (m.state <> 'archived' OR $include_archived)
  AND ($since IS NULL OR coalesce(m.last_event_at, m.created_at) >= $since)
  AND ($until IS NULL OR coalesce(m.last_event_at, m.created_at) < $until)
WITH DISTINCT m
WITH m.macro_id AS key, 1.0 AS score, [m.anchor_key] AS via, coalesce(m.last_event_at, m.created_at) AS at
ORDER BY at DESC, key
LIMIT $limit
RETURN key, score, via
