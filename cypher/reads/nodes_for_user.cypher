// One page of a user's semantic nodes in entity-key order, after `$after` ('' = start).
MATCH (n:Semantic)
WHERE n.user_id = $user_id AND n.entity_key > $after
WITH n
ORDER BY n.entity_key
LIMIT $limit
RETURN labels(n) AS labels, properties(n) AS node
