INSERT INTO relationships (rel_key, user_id, from_key, to_key, relationship_type,
   description, attitude, proximity, strength, created_by, salience, state, confidence,
   access_count, recall_frequency, last_recall_interval, decay_gradient, ttl_policy,
   created_at, updated_at)
VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $2, $10, $11, $12, 0, 0, 0, $13, $14, $15, $15)
ON CONFLICT DO NOTHING
