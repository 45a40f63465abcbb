SELECT source_key FROM fact_sources WHERE fact_id = $1 ORDER BY source_key
