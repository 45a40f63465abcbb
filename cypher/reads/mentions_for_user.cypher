MATCH (s:Source)-[m:mentions]->(n)
WHERE m.user_id = $user_id
WITH s, m, n
ORDER BY s.entity_key, n.entity_key
RETURN s.entity_key AS source_key, n.entity_key AS entity_key, m.user_id AS user_id
