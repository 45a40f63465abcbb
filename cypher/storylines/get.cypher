MATCH (st:Storyline {storyline_id: $storyline_id})
RETURN properties(st) AS storyline
