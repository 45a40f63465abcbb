// A user's facts (superseded ones only when asked; only confirmed ones when asked),
// newest first, then by id.
MATCH (f:Fact)
WHERE f.user_id = $user_id
  AND (f.is_active OR $include_inactive)
  AND (f.confirmed OR NOT $confirmed_only)
WITH f
ORDER BY f.valid_from DESC, f.fact_id
LIMIT $limit
RETURN properties(f) AS fact,
       COLLECT { MATCH (f)-[:about]->(n:Semantic) RETURN n.entity_key AS key } AS about,
       COLLECT { MATCH (f)-[:stated_in]->(s:Source) RETURN s.entity_key AS key } AS source_keys,
       COLLECT { MATCH (f)-[:supersedes]->(old:Fact) RETURN old.fact_id AS id } AS supersedes
