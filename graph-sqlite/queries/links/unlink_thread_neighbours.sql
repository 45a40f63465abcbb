DELETE FROM source_links WHERE kind = 'temporal'
  AND ((to_key = $1 AND from_key IS NOT $2) OR (from_key = $1 AND to_key IS NOT $3)
       OR (from_key = $2 AND to_key = $3))
