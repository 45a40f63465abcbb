// The first Sources of a new Storyline (those that exist).
MATCH (st:Storyline {storyline_id: $storyline_id})
UNWIND $source_keys AS source_key
MATCH (s:Source {entity_key: source_key})
MERGE (st)-[:includes]->(s)
