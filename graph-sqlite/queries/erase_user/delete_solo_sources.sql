DELETE FROM sources WHERE user_id = $1 AND NOT EXISTS (
    SELECT 1 FROM source_participants p WHERE p.source_key = sources.entity_key AND p.user_id <> $1)
