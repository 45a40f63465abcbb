// Re-indexing a Source whose index another embedder made (process-source on a
// processed Source): the summary's embedding and the fingerprint of the embedder that
// made it; clears the last processing error. Content, summary, keywords, tags, status
// and processing times stay as they are. `save_passages` follows in the same
// transaction. Returns 0 when the Source does not exist.
MATCH (s:Source {entity_key: $entity_key})
SET s.embedding = $embedding,
    s.embedded_with = $embedded_with,
    s.processing_error = null,
    s.updated_at = $at
RETURN count(s) AS updated
