// Deletes facts with their links; a fact that superseded one of them stays, without
// the link.
MATCH (f:Fact)
WHERE f.fact_id IN $fact_ids
DETACH DELETE f
RETURN count(*) AS deleted
