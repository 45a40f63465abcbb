// memory_stats: the user's semantic links by relationship type and lifecycle state,
// with the characters of their text (description, notes) and the dimensions of their
// notes' vectors.
MATCH ()-[r:RELATES]->()
WHERE r.user_id = $user_id
WITH r.relationship_type AS relationship_type,
     r.state AS state,
     size(coalesce(r.description, ''))
       + reduce(acc = 0, t IN coalesce(r.note_texts, []) | acc + size(t)) AS chars,
     size(coalesce(r.notes_embedding, [])) AS dims
RETURN relationship_type, state, count(*) AS memories, sum(chars) AS text_chars,
       sum(dims) AS vector_dims
