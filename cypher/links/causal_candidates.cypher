// infer-causal-links: Sources whose causes are to be looked for, by entity key after
// $after, each with up to $window Sources before it in its thread, nearest first (the
// chain is followed at most 8 back; the configuration keeps $window within that).
MATCH (s:Source)
WHERE s.causal_pending = true AND s.entity_key > $after
WITH s
ORDER BY s.entity_key
LIMIT $limit
CALL (s) {
  OPTIONAL MATCH path = (p:Source)-[:precedes*1..8]->(s)
  WITH p, length(path) AS back
  ORDER BY back
  RETURN collect(p.entity_key) AS chain
}
RETURN s.entity_key AS effect_key,
       s.user_id AS user_id,
       chain[..$window] AS earlier
ORDER BY effect_key
