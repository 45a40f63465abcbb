// The nodes a fact is about, with their display names.
MATCH (:Fact {fact_id: $fact_id})-[:about]->(n:Semantic)
RETURN n.entity_key AS entity_key,
       CASE WHEN n:Person THEN n.name ELSE n.display_name END AS name
