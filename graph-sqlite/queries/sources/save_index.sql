UPDATE sources SET embedding = $2, embedded_with = NULLIF($3, ''),
   processing_error = NULL, updated_at = $4
WHERE entity_key = $1
