SELECT s.entity_key FROM source_participants p
JOIN sources s ON s.entity_key = p.source_key
WHERE p.user_id = $1 AND s.user_id <> $1
  AND NOT EXISTS (SELECT 1 FROM extractions e
                  WHERE e.source_key = s.entity_key AND e.user_id = $1 AND e.status <> 'failed')
ORDER BY s.entity_key LIMIT $2
