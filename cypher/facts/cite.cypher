// Where a new fact was stated: only Sources its user may read (owner or participant;
// unknown keys match nothing).
MATCH (f:Fact {fact_id: $fact_id})
UNWIND $source_keys AS source_key
MATCH (s:Source {entity_key: source_key})
WHERE s.user_id = f.user_id OR f.user_id IN coalesce(s.participants, [])
MERGE (f)-[:stated_in]->(s)
