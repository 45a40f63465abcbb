// The Sources a node's consolidated knowledge derives from, by key.
MATCH (:Semantic {entity_key: $entity_key})-[:derived_from]->(s:Source)
WITH DISTINCT s
ORDER BY s.entity_key
RETURN s.entity_key AS entity_key
