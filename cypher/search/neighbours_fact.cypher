// neighbours: the user's live facts in scope about the seed nodes, the most seeds
// first, then the newest. `$seeds` are distinct.
UNWIND $seeds AS seed
MATCH (f:Fact)-[:about]->(:Semantic {entity_key: seed})
WHERE f.user_id = $user_id
  AND f.is_active
  AND (f.state <> 'archived' OR $include_archived)
  AND ($since IS NULL OR f.valid_from >= $since)
  AND ($until IS NULL OR f.valid_from < $until)
WITH f, collect(seed) AS via
WITH f.fact_id AS key, toFloat(size(via)) AS score, via, f.valid_from AS at
ORDER BY score DESC, at DESC, key
LIMIT $limit
RETURN key, score, via
