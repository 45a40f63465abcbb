// Decay's page of facts: at most `$limit` after `$after` ('' = start) in key order, each
// as its element id (for `decay_nodes`), key and user. Only the page is read here; the
// lifecycles are read under a write lock by `decay_nodes`, in the same transaction.
MATCH (x:Fact)
WHERE x.fact_id > $after
WITH x
ORDER BY x.fact_id
LIMIT $limit
RETURN elementId(x) AS id, x.fact_id AS key, x.user_id AS user_id
