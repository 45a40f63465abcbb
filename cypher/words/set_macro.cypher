// Stores the searched words computed for a batch of Macros (`missing_macro`).
UNWIND $rows AS row
MATCH (x:Macro {macro_id: row.key})
SET x.description_terms = row.c0_terms, x.description_counts = row.c0_counts, x.description_len = row.c0_len
