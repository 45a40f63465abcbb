// Decay walks every semantic node in key order: one page after `$after` ('' = start), with
// the lifecycle fields only.
MATCH (x:Semantic)
WHERE x.entity_key > $after
WITH x
ORDER BY x.entity_key
LIMIT $limit
RETURN x.entity_key AS key,
       x.user_id AS user_id,
       x {
         .salience, .state, .confidence, .access_count, .recall_frequency,
         .last_recall_interval, .decay_gradient, .last_accessed_at, .last_decayed_at,
         .ttl_policy, .pinned, .created_at, .updated_at
       } AS lifecycle
