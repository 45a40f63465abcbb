// Stores the searched words computed for a batch of Storylines (`missing_storyline`).
UNWIND $rows AS row
MATCH (x:Storyline {storyline_id: row.key})
SET x.description_terms = row.c0_terms, x.description_counts = row.c0_counts, x.description_len = row.c0_len
