// Stores the searched words computed for a batch of Facts (`missing_fact`), each
// only if its text is still the one they were computed from (`row.c0`…): a text written
// meanwhile by another process came with its own words, or is read again next batch.
// Returns how many were stored.
UNWIND $rows AS row
MATCH (x:Fact {fact_id: row.key})
WHERE coalesce(x.text, '') = row.c0
  AND coalesce(x.value, '') = row.c1
SET x.text_terms = row.c0_terms, x.text_counts = row.c0_counts, x.text_len = row.c0_len,
    x.value_terms = row.c1_terms, x.value_counts = row.c1_counts, x.value_len = row.c1_len
RETURN count(x) AS stored
