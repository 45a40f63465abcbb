MATCH (s:Source {entity_key: $entity_key})
SET s.processing_started_at = $at,
    s.updated_at = $at
