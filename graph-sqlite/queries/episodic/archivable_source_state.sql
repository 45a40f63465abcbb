SELECT state FROM sources
WHERE entity_key = $1 AND user_id = $2 AND state <> 'archived' AND pinned = 0
  AND ttl_policy <> 'keep_forever'
