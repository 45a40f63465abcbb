// promote-storylines: active/core anchors with at least `$min_sources` Sources that
// none of their Storylines includes yet, over at least `$min_days` distinct event days
// (UTC), the earliest before `$first_before`; the most mentioned first. Each comes with
// those Sources, oldest first (event time: `started_at`, else `created_at`).
MATCH (n:Semantic)
WHERE n.state IN ['active', 'core'] AND n.source_count >= $min_sources
MATCH (s:Source)-[:mentions]->(n)
WHERE NOT EXISTS { (s)<-[:includes]-(:Storyline)-[:about]->(n) }
WITH n, s, coalesce(s.started_at, s.created_at) AS event_at
ORDER BY event_at, s.entity_key
WITH n,
     count(s) AS sources,
     count(DISTINCT date(event_at)) AS days,
     min(event_at) AS first_at,
     collect(s {.entity_key, .user_id, .summary, event_at: event_at}) AS briefs
WHERE sources >= $min_sources AND days >= $min_days AND first_at < $first_before
WITH n, briefs
ORDER BY n.source_count DESC, n.entity_key
LIMIT $limit
RETURN n.entity_key AS anchor_key,
       n.user_id AS user_id,
       CASE WHEN n:Person THEN n.name ELSE n.display_name END AS anchor_name,
       briefs
