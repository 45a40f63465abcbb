SELECT entity_key, user_id FROM sources
WHERE causal_pending = 1 AND entity_key > $1
ORDER BY entity_key LIMIT $2
