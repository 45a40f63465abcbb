// The anchors of Storylines and Macros that went: whether they still anchor any.
MATCH (n:Semantic)
WHERE n.entity_key IN $entity_keys
SET n.has_meso = EXISTS { (:Storyline)-[:about]->(n) },
    n.has_macro = EXISTS { (:Macro)-[:rooted_in]->(n) }
