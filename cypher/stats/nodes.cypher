// memory_stats: the user's Persons, Concepts and Entities by kind and lifecycle state;
// how many of them no relationship touches, in either direction (orphans); the
// characters of their text (display name, description, notes) and the dimensions of
// their vectors.
MATCH (n:Semantic)
WHERE n.user_id = $user_id
WITH n,
     CASE
       WHEN n:Person THEN 'person'
       WHEN n:Concept THEN 'concept'
       WHEN n:Entity THEN 'entity'
     END AS kind,
     CASE WHEN n:Person THEN n.name ELSE n.display_name END AS display_name
WITH kind,
     n.state AS state,
     CASE WHEN EXISTS { (n)-[:RELATES]-() } THEN 0 ELSE 1 END AS orphan,
     size(coalesce(display_name, '')) + size(coalesce(n.description, ''))
       + reduce(acc = 0, t IN coalesce(n.note_texts, []) | acc + size(t)) AS chars,
     size(coalesce(n.embedding, [])) AS dims
RETURN kind, state, count(*) AS memories, sum(orphan) AS orphans, sum(chars) AS text_chars,
       sum(dims) AS vector_dims
