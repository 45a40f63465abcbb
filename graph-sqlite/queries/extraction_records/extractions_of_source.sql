SELECT * FROM extractions WHERE source_key = $1 ORDER BY user_id
