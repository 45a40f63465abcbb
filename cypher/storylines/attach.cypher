MATCH (st:Storyline {storyline_id: $storyline_id})
MATCH (a:Semantic {entity_key: $anchor_key})
MERGE (st)-[:about]->(a)
SET a.has_meso = true,
    a.updated_at = $at
