SELECT s.entity_key, s.user_id, s.summary, coalesce(s.started_at, s.created_at) AS event_at
FROM mentions m JOIN sources s ON s.entity_key = m.source_key AND s.user_id = m.user_id
WHERE m.entity_key = $1 AND s.state <> 'archived' AND s.pinned = 0
  AND s.ttl_policy <> 'keep_forever'
  AND coalesce(s.started_at, s.created_at) < $2 AND s.created_at < $2
ORDER BY event_at, s.entity_key
