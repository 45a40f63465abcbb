// The Macros grouping the Storylines the Source just joined: one more Source per joined
// Storyline.
MATCH (m:Macro)-[:groups]->(st:Storyline)
WHERE st.storyline_id IN $storyline_ids
WITH m, count(st) AS joined
SET m.total_source_count = coalesce(m.total_source_count, 0) + joined,
    m.last_event_at = CASE
      WHEN m.last_event_at IS NULL OR $event_time > m.last_event_at THEN $event_time
      ELSE m.last_event_at END,
    m.is_dirty = true,
    m.updated_at = $at
