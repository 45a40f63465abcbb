// Provenance of consolidated knowledge: `(node)-[:derived_from]->(Source)` for each
// distinct Source key and insight, once, with the id of the insight note the Source
// went into (erasing the Source removes that note). A Source consolidated into the same
// node twice (consolidated, recalled, faded, consolidated again) has one link per
// insight. Returns how many of the Sources exist (the caller refuses a consolidation
// naming a missing node or Source).
MATCH (n:Semantic {entity_key: $entity_key})
UNWIND $source_keys AS source_key
MATCH (s:Source {entity_key: source_key})
MERGE (n)-[d:derived_from {note_id: $note_id}]->(s)
ON CREATE SET
  d.user_id = $user_id,
  d.created_at = $at
RETURN count(s) AS linked
