// Decay's page of semantic links: at most `$limit` after `$after` ('' = start) in key order, each
// as its element id (for `decay_relationships`), key and user. Only the page is read here; the
// lifecycles are read under a write lock by `decay_relationships`, in the same transaction.
MATCH ()-[x:RELATES]->()
WHERE x.rel_key > $after
WITH x
ORDER BY x.rel_key
LIMIT $limit
RETURN elementId(x) AS id, x.rel_key AS key, x.user_id AS user_id
