SELECT fact_id FROM fact_sources WHERE source_key = $1
