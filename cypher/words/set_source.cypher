// Stores the searched words computed for a batch of Sources (`missing_source`).
UNWIND $rows AS row
MATCH (x:Source {entity_key: row.key})
SET x.summary_terms = row.c0_terms, x.summary_counts = row.c0_counts, x.summary_len = row.c0_len,
    x.content_terms = row.c1_terms, x.content_counts = row.c1_counts, x.content_len = row.c1_len,
    x.keywords_terms = row.c2_terms, x.keywords_counts = row.c2_counts, x.keywords_len = row.c2_len
