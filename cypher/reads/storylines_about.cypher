// The Storylines about a node, the most recent first (last Source, else creation), then
// by id.
MATCH (st:Storyline)-[:about]->(:Semantic {entity_key: $anchor_key})
WITH DISTINCT st
WITH st, coalesce(st.last_source_at, st.created_at) AS at
ORDER BY at DESC, st.storyline_id
RETURN properties(st) AS storyline
