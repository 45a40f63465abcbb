// The oldest live free-text fact of the user with exactly this text.
MATCH (f:Fact)
WHERE f.user_id = $user_id AND f.is_active AND f.fact_key IS NULL AND f.text = $text
WITH f
ORDER BY f.valid_from, f.fact_id
LIMIT 1
RETURN properties(f) AS fact,
       COLLECT { MATCH (f)-[:about]->(n:Semantic) RETURN n.entity_key AS key } AS about,
       COLLECT { MATCH (f)-[:stated_in]->(s:Source) RETURN s.entity_key AS key } AS source_keys,
       COLLECT { MATCH (f)-[:supersedes]->(old:Fact) RETURN old.fact_id AS id } AS supersedes
