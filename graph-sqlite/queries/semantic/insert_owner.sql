INSERT INTO nodes (entity_key, user_id, kind, identity_name, name, is_owner, created_by,
   salience, state, confidence, access_count, recall_frequency, last_recall_interval,
   decay_gradient, ttl_policy, created_at, updated_at)
VALUES ($1, $2, 'person', $3, $4, 1, $2, $5, $6, $7, 0, 0, 0, 1.0, $8, $9, $9)
