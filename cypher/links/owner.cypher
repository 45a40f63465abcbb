// link_temporal, first: the Source's owner, whose lock the rest takes, and the thread it
// is in (no row: unknown Source).
MATCH (s:Source {entity_key: $entity_key})
RETURN s.user_id AS user_id, s.thread_key AS thread_key
