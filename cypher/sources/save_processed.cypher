// Phase 1's output; `processed` unless the Source is already further along. Clears the
// last processing error. `embedded_with` is the fingerprint of the embedder that made
// the summary's and the passages' vectors (`save_passages` follows in the same
// transaction). Returns 0 when the Source does not exist.
MATCH (s:Source {entity_key: $entity_key})
SET s.content = $content,
    s.summary = $summary,
    s.keywords = $keywords,
    s.summary_terms = $summary_terms,
    s.summary_counts = $summary_counts,
    s.summary_len = $summary_len,
    s.content_terms = $content_terms,
    s.content_counts = $content_counts,
    s.content_len = $content_len,
    s.keywords_terms = $keywords_terms,
    s.keywords_counts = $keywords_counts,
    s.keywords_len = $keywords_len,
    s.tags = $tags,
    s.embedding = $embedding,
    s.embedded_with = $embedded_with,
    s.processing_status = CASE WHEN s.processing_status = 'raw' THEN 'processed' ELSE s.processing_status END,
    s.processing_completed_at = $at,
    s.processing_error = null,
    s.updated_at = $at
RETURN count(s) AS updated
