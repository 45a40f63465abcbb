// The links between Sources (temporal `precedes`, causal `caused`) that touch any of
// $keys, each once, by kind, then from and to key.
UNWIND $keys AS key
MATCH (:Source {entity_key: key})-[l:precedes|caused]-(:Source)
WITH DISTINCT l
WITH l, startNode(l) AS a, endNode(l) AS b
WITH CASE type(l) WHEN 'caused' THEN 'causal' ELSE 'temporal' END AS kind,
     a.entity_key AS from_key, b.entity_key AS to_key, l
ORDER BY kind, from_key, to_key
RETURN {
  kind: kind,
  from_key: from_key,
  to_key: to_key,
  confidence: l.confidence,
  inferred_by: l.inferred_by,
  evidence: l.evidence,
  created_at: l.created_at
} AS link
