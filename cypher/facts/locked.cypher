// One fact, write-locked before it is read (the marker is removed at once; the lock
// lasts until commit), with its links.
MATCH (f:Fact {fact_id: $fact_id})
SET f.just_locked = true
WITH f
REMOVE f.just_locked
WITH f
RETURN properties(f) AS fact,
       COLLECT { MATCH (f)-[:about]->(n:Semantic) RETURN n.entity_key AS key } AS about,
       COLLECT { MATCH (f)-[:stated_in]->(s:Source) RETURN s.entity_key AS key } AS source_keys,
       COLLECT { MATCH (f)-[:supersedes]->(old:Fact) RETURN old.fact_id AS id } AS supersedes
