UPDATE sources SET processing_status = 'extracted', extraction_completed_at = $2, updated_at = $2
WHERE entity_key = $1 AND processing_status <> 'extracted'
