SELECT entity_key, user_id, processing_status FROM sources
WHERE processing_status IN ('raw', 'processed') AND updated_at < $1
ORDER BY updated_at LIMIT $2
