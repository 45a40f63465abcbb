UPDATE sources SET processing_error = $2, updated_at = $3 WHERE entity_key = $1
