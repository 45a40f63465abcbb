UPDATE sources SET causal_pending = 1 WHERE entity_key = $1
