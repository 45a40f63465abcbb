INSERT INTO nodes (entity_key, user_id, kind, identity_name, entity_type, name, created_by,
   salience, state, confidence, access_count, recall_frequency, last_recall_interval,
   decay_gradient, ttl_policy, created_at, updated_at)
VALUES ($1, $2, $3, $4, $5, $6, $2, $7, $8, $9, 0, 0, 0, $10, $11, $12, $12)
