// What a Storyline or an entity lists of these Sources (distinct keys; unknown ones
// match nothing). The caller restores the requested order.
UNWIND $keys AS key
MATCH (s:Source {entity_key: key})
RETURN s {
         .entity_key, .user_id, .source_type, .context_type, .summary, .state,
         event_at: coalesce(s.started_at, s.created_at)
       } AS meta
