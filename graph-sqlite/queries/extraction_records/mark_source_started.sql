UPDATE sources SET extraction_started_at = $2, updated_at = $2
WHERE entity_key = $1 AND user_id = $3 AND processing_status <> 'extracted'
