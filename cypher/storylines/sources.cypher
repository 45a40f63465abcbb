MATCH (:Storyline {storyline_id: $storyline_id})-[:includes]->(s:Source)
WITH s
ORDER BY s.entity_key
RETURN s.entity_key AS entity_key
