SELECT * FROM extractions WHERE status IN ('pending', 'in_progress') AND updated_at < $1
ORDER BY updated_at LIMIT $2
