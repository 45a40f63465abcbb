WITH histories AS (SELECT user_id, count(*) AS sources FROM sources GROUP BY user_id)
SELECT m.entity_key, m.user_id,
       sum(s.state <> 'archived' AND s.pinned = 0 AND s.ttl_policy <> 'keep_forever'
           AND coalesce(s.started_at, s.created_at) < $1 AND s.created_at < $1) AS eligible,
       count(*) AS mentioned_by, h.sources AS corpus
FROM mentions m JOIN sources s ON s.entity_key = m.source_key AND s.user_id = m.user_id
JOIN nodes n ON n.entity_key = m.entity_key
JOIN histories h ON h.user_id = m.user_id
WHERE n.is_owner = 0
GROUP BY m.entity_key, m.user_id, h.sources
HAVING eligible >= $2 AND (corpus < $4 OR mentioned_by <= $3 * corpus)
ORDER BY eligible DESC, m.entity_key LIMIT $5
