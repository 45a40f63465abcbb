SELECT entity_key FROM sources s WHERE user_id = $1 AND NOT EXISTS (
    SELECT 1 FROM source_participants p WHERE p.source_key = s.entity_key AND p.user_id <> $1)
ORDER BY entity_key
