// cleanup-notes, step 1: up to `$limit` semantic nodes holding notes whose `expires_at` is at or
// before `$now` (a note that never expires holds 9999-12-31), in key order, with the
// ids of those notes; of the users of `$key_space` only (the ending of an installation's
// user ids, `graph.neo4j.key_space`; '' for the whole database). Step 2
// (`remove_node_notes`) removes them.
MATCH (x:Semantic)
WHERE any(t IN coalesce(x.note_expires_at, []) WHERE t <= $now)
  AND ($key_space = '' OR x.user_id ENDS WITH $key_space)
WITH x
ORDER BY x.entity_key
LIMIT $limit
RETURN x.entity_key AS target,
       [i IN range(0, size(x.note_expires_at) - 1) WHERE x.note_expires_at[i] <= $now | x.note_ids[i]] AS note_ids
