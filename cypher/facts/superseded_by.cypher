// The fact that replaced this one, if any.
MATCH (newer:Fact)-[:supersedes]->(:Fact {fact_id: $fact_id})
WITH newer
ORDER BY newer.fact_id
LIMIT 1
RETURN newer.fact_id AS fact_id
