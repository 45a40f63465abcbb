// A new Storyline of an anchor that already has a Macro joins it (refreshed next): the
// Macro turns dirty and takes the Storyline's Sources and widens its event span.
MATCH (st:Storyline {storyline_id: $storyline_id})
MATCH (m:Macro)-[:rooted_in]->(:Semantic {entity_key: $anchor_key})
MERGE (m)-[:groups]->(st)
SET m.is_dirty = true,
    m.updated_at = $at,
    m.total_source_count = coalesce(m.total_source_count, 0) + st.source_count,
    m.first_event_at = CASE
      WHEN m.first_event_at IS NULL OR st.first_source_at < m.first_event_at THEN st.first_source_at
      ELSE m.first_event_at END,
    m.last_event_at = CASE
      WHEN m.last_event_at IS NULL OR st.last_source_at > m.last_event_at THEN st.last_source_at
      ELSE m.last_event_at END
