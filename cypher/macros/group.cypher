// The Storylines (of the same user) a new Macro groups.
MATCH (m:Macro {macro_id: $macro_id})
UNWIND $storyline_ids AS storyline_id
MATCH (st:Storyline {storyline_id: storyline_id})
WHERE st.user_id = $user_id
MERGE (m)-[:groups]->(st)
