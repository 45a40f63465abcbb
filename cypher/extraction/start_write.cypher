// First statement of an extraction write: whether the Source exists, the status of this
// (Source, user) extraction (`extracted`: nothing is written), and the user's owner
// Person (if any), which `NodeRef::Owner` resolves to.
OPTIONAL MATCH (s:Source {entity_key: $source_key})
OPTIONAL MATCH (e:Extraction {source_key: $source_key, user_id: $user_id})
OPTIONAL MATCH (o:Person {owner_of: $user_id})
RETURN s IS NOT NULL AS source_exists, e.status AS status, o.entity_key AS owner_key
