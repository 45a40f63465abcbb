// The team Sources $user_id takes part in (a `readable_by` self-link) but does not own,
// whose extraction for them was never requested or failed for good: the next ones a
// batch extraction asks for, in entity-key order.
MATCH (s:Source)-[r:readable_by]->(s)
WHERE r.user_id = $user_id AND s.user_id <> $user_id
  AND NOT EXISTS {
    MATCH (e:Extraction {source_key: s.entity_key, user_id: $user_id})
    WHERE e.status <> 'failed'
  }
WITH s
ORDER BY s.entity_key
LIMIT $limit
RETURN s.entity_key AS key
