SELECT entity_key, user_id, processing_status FROM (
  SELECT entity_key, user_id, processing_status FROM sources
   WHERE processing_status <> 'raw' AND embedded_with IS NULL
  UNION ALL
  SELECT entity_key, user_id, processing_status FROM sources
   WHERE processing_status <> 'raw' AND embedded_with < $1
  UNION ALL
  SELECT entity_key, user_id, processing_status FROM sources
   WHERE processing_status <> 'raw' AND embedded_with > $1)
ORDER BY +entity_key LIMIT $2
