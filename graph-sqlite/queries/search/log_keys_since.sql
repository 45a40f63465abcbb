SELECT DISTINCT key FROM search_vector_log
WHERE user_id = $1 AND target = $2 AND seq > $3 AND seq <= $4
