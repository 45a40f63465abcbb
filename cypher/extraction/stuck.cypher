MATCH (e:Extraction)
WHERE e.status IN ['pending', 'in_progress'] AND e.updated_at < $before
WITH e
ORDER BY e.updated_at, e.source_key, e.user_id
LIMIT $limit
RETURN properties(e) AS extraction
