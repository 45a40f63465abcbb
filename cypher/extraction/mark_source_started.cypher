// The Source's own timing fields follow its owner's extraction only.
MATCH (s:Source {entity_key: $source_key})
WHERE s.user_id = $user_id AND s.processing_status <> 'extracted'
SET s.extraction_started_at = $at,
    s.updated_at = $at
