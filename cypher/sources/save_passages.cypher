// Phase 1's content passages of a Source, in save_processed's transaction: one
// `(s)-[:has_passage]->(p:Passage)` per row (`ordinal`, `text`, `embedding`), keyed
// `<entity_key>#<ordinal>`, with the Source's `user_id` (every node carries its user's
// id: the test harness deletes a key space by it); passages past the new count are
// deleted, so the Source ends with exactly these, however often it is processed.
MATCH (s:Source {entity_key: $entity_key})
OPTIONAL MATCH (s)-[:has_passage]->(old:Passage)
WITH s, [o IN collect(old) WHERE o.ordinal >= size($rows)] AS stale
FOREACH (o IN stale | DETACH DELETE o)
WITH s
UNWIND $rows AS row
MERGE (p:Passage {passage_key: s.entity_key + '#' + toString(row.ordinal)})
SET p.source_key = s.entity_key,
    p.user_id = s.user_id,
    p.ordinal = row.ordinal,
    p.text = row.text,
    p.embedding = row.embedding
MERGE (s)-[:has_passage]->(p)
