MATCH (st:Storyline)
WHERE st.user_id = $user_id
WITH st
ORDER BY st.storyline_id
RETURN properties(st) AS storyline
