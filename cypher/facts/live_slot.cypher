// The live value of a structured fact's (user, category, key) slot.
MATCH (f:Fact {user_id: $user_id, category: $category, fact_key: $fact_key})
WHERE f.is_active
WITH f
ORDER BY f.valid_from, f.fact_id
LIMIT 1
RETURN properties(f) AS fact,
       COLLECT { MATCH (f)-[:about]->(n:Semantic) RETURN n.entity_key AS key } AS about,
       COLLECT { MATCH (f)-[:stated_in]->(s:Source) RETURN s.entity_key AS key } AS source_keys,
       COLLECT { MATCH (f)-[:supersedes]->(old:Fact) RETURN old.fact_id AS id } AS supersedes
