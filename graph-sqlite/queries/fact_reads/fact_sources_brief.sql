SELECT s.entity_key, s.user_id, s.summary, coalesce(s.started_at, s.created_at) AS event_at
FROM fact_sources f JOIN sources s ON s.entity_key = f.source_key
WHERE f.fact_id = $1 ORDER BY event_at, s.entity_key
