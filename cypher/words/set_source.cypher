// Stores the searched words computed for a batch of Sources (`missing_source`), each
// only if its text is still the one they were computed from (`row.c0`…): a text written
// meanwhile by another process came with its own words, or is read again next batch.
// Returns how many were stored.
UNWIND $rows AS row
MATCH (x:Source {entity_key: row.key})
WHERE coalesce(x.summary, '') = row.c0
  AND coalesce(x.content, '') = row.c1
  AND coalesce(x.keywords, []) = row.c2
SET x.summary_terms = row.c0_terms, x.summary_counts = row.c0_counts, x.summary_len = row.c0_len,
    x.content_terms = row.c1_terms, x.content_counts = row.c1_counts, x.content_len = row.c1_len,
    x.keywords_terms = row.c2_terms, x.keywords_counts = row.c2_counts, x.keywords_len = row.c2_len
RETURN count(x) AS stored
