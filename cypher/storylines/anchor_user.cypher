MATCH (a:Semantic {entity_key: $anchor_key})
RETURN a.user_id AS user_id
