// A Macro's Storylines, oldest first (no first Source first, as SQLite orders NULL).
MATCH (:Macro {macro_id: $macro_id})-[:groups]->(st:Storyline)
WITH st
ORDER BY st.first_source_at IS NOT NULL, st.first_source_at, st.storyline_id
RETURN properties(st) AS storyline
