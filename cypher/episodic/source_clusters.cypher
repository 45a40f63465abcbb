// consolidate-episodic: semantic nodes (not owner Persons) mentioned by at least
// `$min_sources` unarchived, unpinned Sources of the node's own user (a participant's
// graph never archives someone else's Source) that happened before `$older_than`; the
// biggest first, each with those Sources, oldest first.
MATCH (s:Source)-[:mentions]->(n:Semantic)
WHERE n.owner_of IS NULL
  AND s.user_id = n.user_id
  AND s.state <> 'archived'
  AND NOT coalesce(s.pinned, false)
  AND coalesce(s.started_at, s.created_at) < $older_than
WITH n, s, coalesce(s.started_at, s.created_at) AS event_at
ORDER BY event_at, s.entity_key
WITH n, collect(s {.entity_key, .user_id, .summary, event_at: event_at}) AS briefs
WHERE size(briefs) >= $min_sources
WITH n, briefs
ORDER BY size(briefs) DESC, n.entity_key
LIMIT $limit
RETURN n.entity_key AS entity_key, n.user_id AS user_id, briefs
