// Stores the searched words computed for a batch of Storylines (`missing_storyline`), each
// only if its text is still the one they were computed from (`row.c0`…): a text written
// meanwhile by another process came with its own words, or is read again next batch.
// Returns how many were stored.
UNWIND $rows AS row
MATCH (x:Storyline {storyline_id: row.key})
WHERE coalesce(x.description, '') = row.c0
SET x.description_terms = row.c0_terms, x.description_counts = row.c0_counts, x.description_len = row.c0_len
RETURN count(x) AS stored
