// Provenance of consolidated knowledge: `(node)-[:derived_from]->(Source)` for each
// distinct Source key, once, with the id of the insight note the Source went into
// (erasing the Source removes that note). Returns how many of the Sources exist (the
// caller refuses a consolidation naming a missing node or Source).
MATCH (n:Semantic {entity_key: $entity_key})
UNWIND $source_keys AS source_key
MATCH (s:Source {entity_key: source_key})
MERGE (n)-[d:derived_from]->(s)
ON CREATE SET
  d.user_id = $user_id,
  d.created_at = $at,
  d.note_id = $note_id
RETURN count(s) AS linked
