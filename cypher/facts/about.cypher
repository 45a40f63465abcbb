// What a new fact is about: only the fact's user's own nodes (unknown keys match
// nothing).
MATCH (f:Fact {fact_id: $fact_id})
UNWIND $entity_keys AS entity_key
MATCH (n:Semantic {entity_key: entity_key})
WHERE n.user_id = f.user_id
MERGE (f)-[:about]->(n)
