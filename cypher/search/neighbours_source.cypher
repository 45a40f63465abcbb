// neighbours: the Sources in scope that mention the seed nodes (through this user's
// extraction), the most seeds first, then the newest. `$seeds` are distinct.
UNWIND $seeds AS seed
MATCH (s:Source)-[m:mentions]->(:Semantic {entity_key: seed})
WHERE m.user_id = $user_id
  AND (s.user_id = $user_id OR $user_id IN coalesce(s.participants, []))
  AND (s.state <> 'archived' OR $include_archived)
  AND ($since IS NULL OR coalesce(s.started_at, s.created_at) >= $since)
  AND ($until IS NULL OR coalesce(s.started_at, s.created_at) < $until)
WITH s, collect(seed) AS via
WITH s.entity_key AS key, toFloat(size(via)) AS score, via, coalesce(s.started_at, s.created_at) AS at
ORDER BY score DESC, at DESC, key
LIMIT $limit
RETURN key, score, via
