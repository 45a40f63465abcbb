// Where a new fact was stated: only Sources its user may read (owner or participant;
// unknown keys match nothing). The fact was said when the latest of them happened.
MATCH (f:Fact {fact_id: $fact_id})
UNWIND $source_keys AS source_key
MATCH (s:Source {entity_key: source_key})
WHERE s.user_id = f.user_id OR f.user_id IN coalesce(s.participants, [])
MERGE (f)-[:stated_in]->(s)
WITH f, max(coalesce(s.started_at, s.created_at)) AS said
SET f.said_at = said
