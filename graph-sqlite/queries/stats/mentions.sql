SELECT count(*) FROM mentions WHERE user_id = $1
