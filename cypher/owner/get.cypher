MATCH (p:Person {owner_of: $user_id})
RETURN labels(p) AS labels, properties(p) AS node
