SELECT entity_key, user_id, summary, coalesce(started_at, created_at) AS event_at FROM sources
WHERE state <> 'archived' AND pinned = 0 AND ttl_policy <> 'keep_forever' AND salience < $2
  AND coalesce(started_at, created_at) < $1 AND created_at < $1
  AND EXISTS (SELECT 1 FROM mentions m JOIN nodes n ON n.entity_key = m.entity_key
              WHERE m.source_key = sources.entity_key AND m.user_id = sources.user_id
                AND n.is_owner = 0)
ORDER BY event_at, entity_key LIMIT $3
