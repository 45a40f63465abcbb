SELECT n.entity_key, n.user_id, n.name, count(*) AS storylines
FROM nodes n JOIN storylines st ON st.anchor_key = n.entity_key
WHERE st.state IN ('active', 'core') AND n.has_macro = 0 AND n.first_mentioned_at < $1
GROUP BY n.entity_key HAVING count(*) >= 2
ORDER BY storylines DESC, n.entity_key LIMIT $2
