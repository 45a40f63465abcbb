INSERT INTO sources (
  entity_key, user_id, team_id, participants, source_type, raw_content, provenance,
  context_type, started_at, ended_at, sensitivity, idempotency_key, external_id, content_hash,
  processing_status, salience, state, confidence, access_count, recall_frequency,
  last_recall_interval, decay_gradient, ttl_policy, pinned, created_at, updated_at)
VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, 'raw',
  $15, $16, $17, $18, $19, $20, $21, $22, $23, $24, $25)
ON CONFLICT DO NOTHING
