// The new fact replaces an old one.
MATCH (f:Fact {fact_id: $fact_id})
MATCH (old:Fact {fact_id: $supersedes})
MERGE (f)-[:supersedes]->(old)
