// The latest `$limit` Sources of a Storyline by event time, returned oldest first.
MATCH (:Storyline {storyline_id: $storyline_id})-[:includes]->(s:Source)
WITH s, coalesce(s.started_at, s.created_at) AS event_at
ORDER BY event_at DESC, s.entity_key DESC
LIMIT $limit
WITH s, event_at
ORDER BY event_at, s.entity_key
RETURN s {.entity_key, .user_id, .summary, event_at: event_at} AS brief
