UPDATE sources SET processing_started_at = $2, updated_at = $2 WHERE entity_key = $1
