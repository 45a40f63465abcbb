DELETE FROM extractions WHERE user_id = $1
