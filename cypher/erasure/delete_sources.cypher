// Deletes Sources with their content passages and all their links (mentions,
// includes, derived_from, stated_in, readable_by, has_passage).
MATCH (s:Source)
WHERE s.entity_key IN $source_keys
OPTIONAL MATCH (s)-[:has_passage]->(p:Passage)
WITH s, collect(p) AS passages
FOREACH (p IN passages | DETACH DELETE p)
DETACH DELETE s
RETURN count(*) AS deleted
