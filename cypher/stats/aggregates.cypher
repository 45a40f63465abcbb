// memory_stats: the user's Storylines, Macros and facts by lifecycle state; `inactive`
// counts facts superseded or retracted. With the characters of their text
// (descriptions; a fact's text and value) and the dimensions of their vectors.
CALL () {
  MATCH (st:Storyline)
  WHERE st.user_id = $user_id
  RETURN 'storyline' AS kind, st.state AS state, 0 AS inactive,
         size(coalesce(st.description, '')) AS chars,
         size(coalesce(st.embedding, [])) AS dims
  UNION ALL
  MATCH (m:Macro)
  WHERE m.user_id = $user_id
  RETURN 'macro' AS kind, m.state AS state, 0 AS inactive,
         size(coalesce(m.description, '')) AS chars,
         size(coalesce(m.embedding, [])) AS dims
  UNION ALL
  MATCH (f:Fact)
  WHERE f.user_id = $user_id
  RETURN 'fact' AS kind, f.state AS state,
         CASE WHEN f.is_active THEN 0 ELSE 1 END AS inactive,
         size(coalesce(f.text, '')) + size(coalesce(f.value, '')) AS chars,
         size(coalesce(f.embedding, [])) AS dims
}
RETURN kind, state, count(*) AS memories, sum(inactive) AS inactive, sum(chars) AS text_chars,
       sum(dims) AS vector_dims
