SELECT entity_key FROM fact_about WHERE fact_id = $1 ORDER BY entity_key
