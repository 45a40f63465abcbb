// Decay's page of semantic nodes: at most `$limit` after `$after` ('' = start) in key order, each
// as its element id (for `decay_nodes`), key and user. Only the page is read here; the
// lifecycles are read under a write lock by `decay_nodes`, in the same transaction.
MATCH (x:Semantic)
WHERE x.entity_key > $after
WITH x
ORDER BY x.entity_key
LIMIT $limit
RETURN elementId(x) AS id, x.entity_key AS key, x.user_id AS user_id
