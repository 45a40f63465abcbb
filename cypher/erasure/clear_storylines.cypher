// Storylines that lost a Source: statistics from the Sources left, description and
// embedding cleared, dirty (refresh rewrites them). Each is write-locked first.
MATCH (st:Storyline)
WHERE st.storyline_id IN $storyline_ids
SET st.updated_at = $at
WITH st
OPTIONAL MATCH (st)-[:includes]->(s:Source)
WITH st,
     count(s) AS sources,
     min(coalesce(s.started_at, s.created_at)) AS first_at,
     max(coalesce(s.started_at, s.created_at)) AS last_at
SET st.source_count = sources,
    st.first_source_at = first_at,
    st.last_source_at = last_at,
    st.description = '',
    st.description_terms = [],
    st.description_counts = [],
    st.description_len = 0,
    st.embedding = null,
    st.is_dirty = true
RETURN count(st) AS cleared
