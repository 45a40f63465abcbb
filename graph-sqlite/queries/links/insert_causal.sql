INSERT INTO source_links
  (kind, from_key, to_key, user_id, confidence, inferred_by, evidence, created_at)
SELECT 'causal', entity_key, $2, $3, $4, $5, $6, $7 FROM sources
WHERE entity_key = $1 AND user_id = $3 AND entity_key <> $2
ON CONFLICT (kind, from_key, to_key) DO NOTHING
