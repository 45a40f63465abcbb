SELECT storyline_id FROM storyline_sources WHERE source_key = $1
