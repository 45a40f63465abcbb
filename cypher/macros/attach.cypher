MATCH (m:Macro {macro_id: $macro_id})
MATCH (a:Semantic {entity_key: $anchor_key})
MERGE (m)-[:rooted_in]->(a)
SET a.has_macro = true,
    a.updated_at = $at
