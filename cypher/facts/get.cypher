// One fact with its links: the nodes it is about, the Sources it was stated in, the
// fact it superseded.
MATCH (f:Fact {fact_id: $fact_id})
RETURN properties(f) AS fact,
       COLLECT { MATCH (f)-[:about]->(n:Semantic) RETURN n.entity_key AS key } AS about,
       COLLECT { MATCH (f)-[:stated_in]->(s:Source) RETURN s.entity_key AS key } AS source_keys,
       COLLECT { MATCH (f)-[:supersedes]->(old:Fact) RETURN old.fact_id AS id } AS supersedes
