SELECT * FROM extractions WHERE source_key = $1 AND user_id = $2
