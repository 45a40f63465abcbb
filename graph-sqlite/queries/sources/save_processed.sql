UPDATE sources SET content = $2, summary = $3, keywords = $4, tags = $5, embedding = $6,
   embedded_with = NULLIF($8, ''),
   processing_status = CASE WHEN processing_status = 'raw' THEN 'processed' ELSE processing_status END,
   processing_completed_at = $7, processing_error = NULL, updated_at = $7
WHERE entity_key = $1
