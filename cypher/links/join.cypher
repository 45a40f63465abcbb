// link_temporal, under the owner's lock: records the Source's thread. A Source that
// newly joins it has its causes looked for (`causal_pending`). Returns whether it
// newly joined.
MATCH (s:Source {entity_key: $entity_key})
WITH s, coalesce(s.thread_key, '') <> $thread_key AS joined
SET s.thread_key = $thread_key,
    s.causal_pending = CASE WHEN joined THEN true ELSE coalesce(s.causal_pending, false) END
RETURN joined
