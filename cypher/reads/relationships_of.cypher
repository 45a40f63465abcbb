// A user's semantic links touching any of the nodes, strongest first, then by key.
UNWIND $node_keys AS node_key
MATCH (:Semantic {entity_key: node_key})-[r:RELATES]-()
WHERE r.user_id = $user_id
WITH DISTINCT r
ORDER BY r.strength DESC, r.rel_key
LIMIT $limit
RETURN startNode(r).entity_key AS from_key,
       endNode(r).entity_key AS to_key,
       properties(r) AS relationship
