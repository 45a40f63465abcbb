// The Source itself is `extracted` once its owner's extraction is.
MATCH (s:Source {entity_key: $source_key})
WHERE s.processing_status <> 'extracted'
SET s.processing_status = 'extracted',
    s.extraction_completed_at = $at,
    s.updated_at = $at
