// First statement of an extraction write: whether the Source exists, the status of this
// (Source, user) extraction (`extracted`: nothing is written), and the user's owner
// Person (if any), which `NodeRef::Owner` resolves to. The Source is write-locked first
// (the marker is removed at once; the lock lasts until commit): an erasure of it and
// this write serialise, so nothing taken from an erased Source is written after it.
OPTIONAL MATCH (s:Source {entity_key: $source_key})
FOREACH (locked IN CASE WHEN s IS NULL THEN [] ELSE [s] END |
  SET locked.just_locked = true
  REMOVE locked.just_locked)
WITH s
OPTIONAL MATCH (e:Extraction {source_key: $source_key, user_id: $user_id})
OPTIONAL MATCH (o:Person {owner_of: $user_id})
RETURN s IS NOT NULL AS source_exists, e.status AS status, o.entity_key AS owner_key
