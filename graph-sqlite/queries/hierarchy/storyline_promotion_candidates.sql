WITH uncovered AS (
   SELECT m.entity_key, coalesce(s.started_at, s.created_at) AS event_at
   FROM mentions m
   JOIN nodes n ON n.entity_key = m.entity_key
   JOIN sources s ON s.entity_key = m.source_key
   WHERE n.state IN ('active', 'core') AND n.source_count >= $1
     AND NOT EXISTS (
       SELECT 1 FROM storyline_sources ss JOIN storylines st ON st.storyline_id = ss.storyline_id
       WHERE ss.source_key = m.source_key AND st.anchor_key = m.entity_key))
SELECT n.entity_key, n.user_id, n.name
FROM nodes n JOIN (
   SELECT entity_key, count(*) AS sources,
          count(DISTINCT date(event_at / 1000000, 'unixepoch')) AS days, min(event_at) AS first_at
   FROM uncovered GROUP BY entity_key) u ON u.entity_key = n.entity_key
WHERE u.sources >= $1 AND u.days >= $2 AND u.first_at < $3
ORDER BY n.source_count DESC, n.entity_key LIMIT $4
