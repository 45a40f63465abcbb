// update_lifecycles: each distinct semantic node key (in order; unknown keys match
// nothing) is write-locked before its lifecycle is read (the marker is removed at once;
// the lock lasts until commit), so concurrent updates of one memory serialise and none
// is lost.
UNWIND $keys AS key
MATCH (x:Semantic {entity_key: key})
SET x.just_locked = true
WITH x
REMOVE x.just_locked
WITH x
RETURN x.entity_key AS key,
       x.user_id AS user_id,
       x {
         .salience, .state, .confidence, .access_count, .recall_frequency,
         .last_recall_interval, .decay_gradient, .last_accessed_at, .last_decayed_at,
         .ttl_policy, .pinned, .created_at, .updated_at
       } AS lifecycle
