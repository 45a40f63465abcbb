// One page of a user's semantic links in key order, after `$after` ('' = start).
MATCH (a)-[r:RELATES]->(b)
WHERE r.user_id = $user_id AND r.rel_key > $after
WITH a, r, b
ORDER BY r.rel_key
LIMIT $limit
RETURN a.entity_key AS from_key, b.entity_key AS to_key, properties(r) AS relationship
