INSERT INTO macros (macro_id, user_id, anchor_key, description, embedding, salience, state,
   confidence, access_count, recall_frequency, last_recall_interval, decay_gradient, ttl_policy,
   created_at, updated_at)
SELECT $1, $2, $3, $4, $5, $6, $7, $8, 0, 0, 0, $9, $10, $11, $11
FROM nodes WHERE entity_key = $3 AND user_id = $2
ON CONFLICT DO NOTHING
