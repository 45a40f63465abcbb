// neighbours: the user's nodes in scope related to the seed nodes (seeds excluded),
// scored by the summed strength of those links (archived links only when asked), the
// strongest first. A link is counted once from each seed end. `$seeds` are distinct.
UNWIND $seeds AS seed
MATCH (:Semantic {entity_key: seed})-[r:RELATES]-(o:Semantic)
WHERE r.user_id = $user_id
  AND (r.state <> 'archived' OR $include_archived)
  AND NOT (o.entity_key IN $seeds)
  AND o.user_id = $user_id
  AND (o.state <> 'archived' OR $include_archived)
  AND ($since IS NULL OR coalesce(o.last_mentioned_at, o.created_at) >= $since)
  AND ($until IS NULL OR coalesce(o.last_mentioned_at, o.created_at) < $until)
WITH o.entity_key AS key, toFloat(sum(r.strength)) AS score, collect(seed) AS via
ORDER BY score DESC, key
LIMIT $limit
RETURN key, score, via
