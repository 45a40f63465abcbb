UPDATE sources SET thread_key = $2, causal_pending = 1
WHERE entity_key = $1 AND thread_key IS NOT $2
