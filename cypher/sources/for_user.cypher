// One page of a user's Sources in entity-key order, after the key `$after` ('' = start).
MATCH (s:Source)
WHERE s.user_id = $user_id AND s.entity_key > $after
WITH s
ORDER BY s.entity_key
LIMIT $limit
RETURN properties(s) AS source
