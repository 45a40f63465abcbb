SELECT fact_id FROM fact_sources WHERE source_key IN (SELECT entity_key FROM sources WHERE user_id = $1)
