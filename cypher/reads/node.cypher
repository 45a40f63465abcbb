MATCH (n:Semantic {entity_key: $entity_key})
RETURN labels(n) AS labels, properties(n) AS node
