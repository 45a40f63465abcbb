// The chain of facts this one replaced, nearest first (`depth` 1 is the one it
// superseded). Chains are acyclic by construction; the bound guards a corrupted one.
MATCH p = (:Fact {fact_id: $fact_id})-[:supersedes*1..1000]->(f:Fact)
WITH f, min(length(p)) AS depth
RETURN properties(f) AS fact,
       COLLECT { MATCH (f)-[:about]->(n:Semantic) RETURN n.entity_key AS key } AS about,
       COLLECT { MATCH (f)-[:stated_in]->(s:Source) RETURN s.entity_key AS key } AS source_keys,
       COLLECT { MATCH (f)-[:supersedes]->(old:Fact) RETURN old.fact_id AS id } AS supersedes,
       depth
