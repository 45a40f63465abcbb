// Stores the searched words computed for a batch of Facts (`missing_fact`).
UNWIND $rows AS row
MATCH (x:Fact {fact_id: row.key})
SET x.text_terms = row.c0_terms, x.text_counts = row.c0_counts, x.text_len = row.c0_len,
    x.value_terms = row.c1_terms, x.value_counts = row.c1_counts, x.value_len = row.c1_len
