// A null `$error` removes the property (clears the last error).
MATCH (s:Source {entity_key: $entity_key})
SET s.processing_error = $error,
    s.updated_at = $at
