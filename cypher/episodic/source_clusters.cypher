// consolidate-episodic: semantic nodes (not owner Persons) mentioned by at least
// `$min_sources` unarchived, unpinned Sources not kept forever of the node's own user (a participant's
// graph never archives someone else's Source) that both happened (event time:
// `started_at`, else `created_at`) and were received (`created_at`) before
// `$older_than`, so a back-filled history waits until it has been here that long; the
// biggest first, each with those Sources, oldest first. A Source may be in several.
MATCH (s:Source)-[:mentions]->(n:Semantic)
WHERE n.owner_of IS NULL
  AND s.user_id = n.user_id
  AND s.state <> 'archived'
  AND NOT coalesce(s.pinned, false)
  AND coalesce(s.ttl_policy, 'decay') <> 'keep_forever'
  AND coalesce(s.started_at, s.created_at) < $older_than
  AND s.created_at < $older_than
WITH n, s, coalesce(s.started_at, s.created_at) AS event_at
ORDER BY event_at, s.entity_key
WITH n, collect(s {.entity_key, .user_id, .summary, event_at: event_at}) AS briefs
WHERE size(briefs) >= $min_sources
// A shared anchor makes no cluster: a node that more than `$anchor_share` of all its
// user's own Sources mention (any state, age or pin), once that user has at least
// `$anchor_min_sources` Sources. Each user's Sources are counted once.
WITH n.user_id AS user_id, collect({node: n, briefs: briefs}) AS candidates
WITH candidates, COUNT { MATCH (o:Source) WHERE o.user_id = user_id } AS corpus
UNWIND candidates AS candidate
WITH candidate.node AS n, candidate.briefs AS briefs, corpus
WHERE corpus < $anchor_min_sources
   OR COUNT { MATCH (o:Source)-[:mentions]->(n) WHERE o.user_id = n.user_id } <= $anchor_share * corpus
WITH n, briefs
ORDER BY size(briefs) DESC, n.entity_key
LIMIT $limit
RETURN n.entity_key AS entity_key, n.user_id AS user_id, briefs
