SELECT s.entity_key, s.user_id, s.summary, coalesce(s.started_at, s.created_at) AS event_at
FROM mentions m JOIN sources s ON s.entity_key = m.source_key
WHERE m.entity_key = $1 AND NOT EXISTS (
    SELECT 1 FROM storyline_sources ss JOIN storylines st ON st.storyline_id = ss.storyline_id
    WHERE ss.source_key = m.source_key AND st.anchor_key = m.entity_key)
ORDER BY event_at, s.entity_key
