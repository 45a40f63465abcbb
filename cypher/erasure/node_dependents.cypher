// What goes with these nodes: their notes (counted), their semantic links, the
// Storylines about them and the Macros rooted in them.
MATCH (n:Semantic)
WHERE n.entity_key IN $entity_keys
RETURN size(coalesce(n.note_ids, [])) AS notes,
       COLLECT { MATCH (n)-[r:RELATES]-() RETURN DISTINCT r.rel_key AS key } AS relationships,
       COLLECT { MATCH (st:Storyline)-[:about]->(n) RETURN st.storyline_id AS id } AS storylines,
       COLLECT { MATCH (m:Macro)-[:rooted_in]->(n) RETURN m.macro_id AS id } AS macros
