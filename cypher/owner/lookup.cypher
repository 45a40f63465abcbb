// The user's owner Person, and a Person already named like the profile.
OPTIONAL MATCH (o:Person {owner_of: $user_id})
OPTIONAL MATCH (n:Person {canonical_name: $canonical_name, user_id: $user_id})
RETURN o.entity_key AS owner_key, n.entity_key AS namesake_key
