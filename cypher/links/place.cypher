// link_temporal, under the owner's lock: puts the Source between the latest Source of
// its thread before it and the earliest one after it (by event time: its start, else
// when it was posted; ties by entity key). It keeps exactly one `precedes` link in and
// one out, to those two, which no longer follow each other directly. If it newly
// joined ($joined), the one after it has its causes looked for again.
MATCH (s:Source {entity_key: $entity_key})
WITH s, coalesce(s.started_at, s.created_at) AS t
CALL (s, t) {
  OPTIONAL MATCH (o:Source {thread_key: $thread_key})
  WHERE o <> s
    AND (coalesce(o.started_at, o.created_at) < t
         OR (coalesce(o.started_at, o.created_at) = t AND o.entity_key < s.entity_key))
  WITH o
  ORDER BY coalesce(o.started_at, o.created_at) DESC, o.entity_key DESC
  LIMIT 1
  RETURN o AS before
}
CALL (s, t) {
  OPTIONAL MATCH (o:Source {thread_key: $thread_key})
  WHERE o <> s
    AND (coalesce(o.started_at, o.created_at) > t
         OR (coalesce(o.started_at, o.created_at) = t AND o.entity_key > s.entity_key))
  WITH o
  ORDER BY coalesce(o.started_at, o.created_at) ASC, o.entity_key ASC
  LIMIT 1
  RETURN o AS after
}
CALL (s, before) {
  MATCH (x:Source)-[r:precedes]->(s)
  WHERE before IS NULL OR x <> before
  DELETE r
}
CALL (s, after) {
  MATCH (s)-[r:precedes]->(y:Source)
  WHERE after IS NULL OR y <> after
  DELETE r
}
OPTIONAL MATCH (before)-[stale:precedes]->(after)
DELETE stale
WITH s, before, after
FOREACH (b IN CASE WHEN before IS NULL THEN [] ELSE [before] END |
  MERGE (b)-[r:precedes]->(s)
  ON CREATE SET r.user_id = s.user_id, r.confidence = 1.0, r.created_at = $at)
FOREACH (a IN CASE WHEN after IS NULL THEN [] ELSE [after] END |
  MERGE (s)-[r:precedes]->(a)
  ON CREATE SET r.user_id = s.user_id, r.confidence = 1.0, r.created_at = $at
  SET a.causal_pending = CASE WHEN $joined THEN true ELSE coalesce(a.causal_pending, false) END)
RETURN before.entity_key AS before, after.entity_key AS after
