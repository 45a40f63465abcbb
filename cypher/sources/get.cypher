MATCH (s:Source {entity_key: $entity_key})
RETURN properties(s) AS source
