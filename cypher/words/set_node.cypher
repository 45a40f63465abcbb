// Stores the searched words computed for a batch of Semantics (`missing_node`).
UNWIND $rows AS row
MATCH (x:Semantic {entity_key: row.key})
SET x.name_terms = row.c0_terms, x.name_counts = row.c0_counts, x.name_len = row.c0_len,
    x.description_terms = row.c1_terms, x.description_counts = row.c1_counts, x.description_len = row.c1_len
