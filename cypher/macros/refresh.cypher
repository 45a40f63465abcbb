// A new Macro's statistics from the Storylines it groups.
MATCH (m:Macro {macro_id: $macro_id})
OPTIONAL MATCH (m)-[:groups]->(st:Storyline)
WITH m,
     count(st) AS storylines,
     coalesce(sum(st.source_count), 0) AS sources,
     min(st.first_source_at) AS first_at,
     max(st.last_source_at) AS last_at
SET m.storyline_count = storylines,
    m.total_source_count = sources,
    m.first_event_at = first_at,
    m.last_event_at = last_at
