SELECT source_key FROM storyline_sources WHERE storyline_id = $1 ORDER BY source_key
