// A refreshed Macro: new overview, the embedding only when one is given (`$embedding`
// null keeps the old one), `storyline_count` recounted; clean again. `updated_at` is
// written first: it write-locks the Macro before its Storylines are counted, so a
// Storyline joining concurrently is counted by whichever commits last.
MATCH (m:Macro {macro_id: $macro_id})
SET m.updated_at = $at
WITH m
OPTIONAL MATCH (m)-[:groups]->(st:Storyline)
WITH m, count(st) AS storylines
SET m.description = $description,
    m.description_terms = $description_terms,
    m.description_counts = $description_counts,
    m.description_len = $description_len,
    m.embedding = coalesce($embedding, m.embedding),
    m.storyline_count = storylines,
    m.is_dirty = false
