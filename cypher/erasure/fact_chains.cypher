// The facts and every fact they superseded, transitively (their history).
MATCH (f:Fact)
WHERE f.fact_id IN $fact_ids
MATCH (f)-[:supersedes*0..]->(old:Fact)
RETURN collect(DISTINCT old.fact_id) AS ids
