// Live, unconfirmed, unarchived facts below either bar, the weakest first.
MATCH (f:Fact)
WHERE f.user_id = $user_id
  AND f.is_active
  AND NOT f.confirmed
  AND f.state <> 'archived'
  AND (f.salience < $salience_below OR f.confidence < $confidence_below)
WITH f
ORDER BY f.salience, f.confidence, f.fact_id
LIMIT $limit
RETURN properties(f) AS fact,
       COLLECT { MATCH (f)-[:about]->(n:Semantic) RETURN n.entity_key AS key } AS about,
       COLLECT { MATCH (f)-[:stated_in]->(s:Source) RETURN s.entity_key AS key } AS source_keys,
       COLLECT { MATCH (f)-[:supersedes]->(old:Fact) RETURN old.fact_id AS id } AS supersedes
