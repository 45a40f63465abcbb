UPDATE sources SET causal_pending = 0 WHERE entity_key = $1
