// One semantic link's lifecycle.
MATCH ()-[x:RELATES {rel_key: $key}]->()
RETURN x.rel_key AS key,
       x.user_id AS user_id,
       x {
         .salience, .state, .confidence, .access_count, .recall_frequency,
         .last_recall_interval, .decay_gradient, .last_accessed_at, .last_decayed_at,
         .ttl_policy, .pinned, .created_at, .updated_at
       } AS lifecycle
