SELECT DISTINCT source_key FROM derived_from WHERE entity_key = $1 ORDER BY source_key
