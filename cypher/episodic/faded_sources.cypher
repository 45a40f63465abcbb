// consolidate-episodic: unarchived, unpinned Sources not kept forever that both happened (event time:
// `started_at`, else `created_at`) and were received (`created_at`) before
// `$older_than` with salience below `$salience_below`, oldest first, each with the
// nodes its owner's extraction mentions (the owner Person excluded). A Source that
// mentions no such node is left out: no insight could carry what it held.
MATCH (s:Source)
WHERE s.state <> 'archived'
  AND NOT coalesce(s.pinned, false)
  AND coalesce(s.ttl_policy, 'decay') <> 'keep_forever'
  AND s.salience < $salience_below
  AND coalesce(s.started_at, s.created_at) < $older_than
  AND s.created_at < $older_than
  AND EXISTS {
    MATCH (s)-[m:mentions]->(n:Semantic)
    WHERE m.user_id = s.user_id AND n.owner_of IS NULL
  }
WITH s, coalesce(s.started_at, s.created_at) AS event_at
ORDER BY event_at, s.entity_key
LIMIT $limit
RETURN s {.entity_key, .user_id, .summary, event_at: event_at} AS brief,
       COLLECT {
         MATCH (s)-[m:mentions]->(n:Semantic)
         WHERE m.user_id = s.user_id AND n.owner_of IS NULL
         RETURN n.entity_key AS entity_key
       } AS mentioned
