// Deletes Storylines with their links.
MATCH (st:Storyline)
WHERE st.storyline_id IN $storyline_ids
DETACH DELETE st
RETURN count(*) AS deleted
