// memory_stats: the user's own Sources by lifecycle state and processing status, with
// the characters of their text (raw content, cleaned content, summary, passages) and
// the dimensions of their vectors (the summary's and the passages').
MATCH (s:Source)
WHERE s.user_id = $user_id
CALL (s) {
  OPTIONAL MATCH (s)-[:has_passage]->(p:Passage)
  RETURN sum(size(p.text)) AS passage_chars,
         sum(size(coalesce(p.embedding, []))) AS passage_dims
}
WITH s.state AS state,
     s.processing_status AS status,
     size(coalesce(s.raw_content, '')) + size(coalesce(s.content, ''))
       + size(coalesce(s.summary, '')) + passage_chars AS chars,
     size(coalesce(s.embedding, [])) + passage_dims AS dims
RETURN state, status, count(*) AS memories, sum(chars) AS text_chars, sum(dims) AS vector_dims
