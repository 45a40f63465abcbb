// Macros whose Storylines changed: statistics from the Storylines left, description and
// embedding cleared, dirty. Each is write-locked first.
MATCH (m:Macro)
WHERE m.macro_id IN $macro_ids
SET m.updated_at = $at
WITH m
OPTIONAL MATCH (m)-[:groups]->(st:Storyline)
WITH m,
     count(st) AS storylines,
     coalesce(sum(st.source_count), 0) AS sources,
     min(st.first_source_at) AS first_at,
     max(st.last_source_at) AS last_at
SET m.storyline_count = storylines,
    m.total_source_count = sources,
    m.first_event_at = first_at,
    m.last_event_at = last_at,
    m.description = '',
    m.description_terms = [],
    m.description_counts = [],
    m.description_len = 0,
    m.embedding = null,
    m.is_dirty = true
RETURN count(m) AS cleared
