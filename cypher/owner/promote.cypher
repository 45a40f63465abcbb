// Makes a Person the owner (an extracted namesake) or renames the owner; changes
// nothing, not even `updated_at`, when it already is the owner under that name.
MATCH (p:Semantic:Person {entity_key: $entity_key})
WHERE p.owner_of IS NULL OR p.canonical_name <> $canonical_name OR p.name <> $name
SET p.owner_of = $user_id,
    p.canonical_name = $canonical_name,
    p.name = $name,
    p.name_terms = $name_terms,
    p.name_counts = $name_counts,
    p.name_len = $name_len,
    p.state = $state,
    p.salience = $salience,
    p.confidence = $confidence,
    p.ttl_policy = $ttl_policy,
    p.updated_at = $at
