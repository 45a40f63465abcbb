MATCH (s:Source)
WHERE s.processing_status IN ['raw', 'processed'] AND s.updated_at < $before
WITH s
ORDER BY s.updated_at, s.entity_key
LIMIT $limit
RETURN s.entity_key AS entity_key, s.user_id AS user_id, s.processing_status AS processing_status
