INSERT INTO facts (fact_id, user_id, text, category, fact_key, value, is_active, valid_from,
   confirmed, supersedes, embedding, salience, state, confidence, access_count,
   recall_frequency, last_recall_interval, decay_gradient, ttl_policy, pinned, created_at,
   updated_at)
VALUES ($1, $2, $3, $4, $5, $6, 1, $7, 0, $8, $9, $10, $11, $12, 0, 0, 0, $13, $14, 0, $7, $7)
