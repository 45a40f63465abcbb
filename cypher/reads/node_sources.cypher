// The Sources mentioning a node, newest first (event time: `started_at`, else
// `created_at`), then by key.
MATCH (s:Source)-[:mentions]->(:Semantic {entity_key: $entity_key})
WITH DISTINCT s
WITH s, coalesce(s.started_at, s.created_at) AS event_at
ORDER BY event_at DESC, s.entity_key
LIMIT $limit
RETURN s {
         .entity_key, .user_id, .source_type, .context_type, .summary, .state,
         event_at: event_at
       } AS meta
