// Stores the searched words computed for a batch of Semantics (`missing_node`), each
// only if its text is still the one they were computed from (`row.c0`…): a text written
// meanwhile by another process came with its own words, or is read again next batch.
// Returns how many were stored.
UNWIND $rows AS row
MATCH (x:Semantic {entity_key: row.key})
WHERE CASE WHEN x:Person THEN coalesce(x.name, '') ELSE coalesce(x.display_name, x.name, '') END = row.c0
  AND coalesce(x.description, '') = row.c1
SET x.name_terms = row.c0_terms, x.name_counts = row.c0_counts, x.name_len = row.c0_len,
    x.description_terms = row.c1_terms, x.description_counts = row.c1_counts, x.description_len = row.c1_len
RETURN count(x) AS stored
