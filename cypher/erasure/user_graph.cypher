// erase_user: the user's semantic nodes and facts.
RETURN COLLECT { MATCH (n:Semantic) WHERE n.user_id = $user_id RETURN n.entity_key AS key } AS entity_keys,
       COLLECT { MATCH (f:Fact) WHERE f.user_id = $user_id RETURN f.fact_id AS id } AS fact_ids
