// infer-causal-links: writes the causal links found for one Source, each from a Source
// of the same owner that still exists, once (a link already there is kept as it is),
// and marks the Source's causes looked for. Returns how many links are new (no row:
// unknown Source).
MATCH (e:Source {entity_key: $effect_key})
SET e.causal_pending = false
WITH e
CALL (e) {
  UNWIND $rows AS row
  MATCH (c:Source {entity_key: row.cause_key})
  WHERE c.user_id = e.user_id AND c <> e
  MERGE (c)-[l:caused]->(e)
  ON CREATE SET
    l.user_id = e.user_id,
    l.confidence = row.confidence,
    l.inferred_by = row.inferred_by,
    l.evidence = row.evidence,
    l.created_at = $at,
    l.just_created = true
  WITH l, l.just_created IS NOT NULL AS created
  REMOVE l.just_created
  RETURN count(CASE WHEN created THEN 1 END) AS written
}
RETURN written
