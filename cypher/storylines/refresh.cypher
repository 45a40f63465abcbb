// A new Storyline's statistics from the Sources it includes, on their event times.
MATCH (st:Storyline {storyline_id: $storyline_id})
OPTIONAL MATCH (st)-[:includes]->(s:Source)
WITH st,
     count(s) AS sources,
     min(coalesce(s.started_at, s.created_at)) AS first_at,
     max(coalesce(s.started_at, s.created_at)) AS last_at
SET st.source_count = sources,
    st.first_source_at = first_at,
    st.last_source_at = last_at
