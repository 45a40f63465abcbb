SELECT * FROM (
   SELECT s.entity_key, s.user_id, s.summary, coalesce(s.started_at, s.created_at) AS event_at
   FROM storyline_sources ss JOIN sources s ON s.entity_key = ss.source_key
   WHERE ss.storyline_id = $1 ORDER BY event_at DESC, s.entity_key DESC LIMIT $2)
ORDER BY event_at, entity_key
