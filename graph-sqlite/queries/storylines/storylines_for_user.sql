SELECT * FROM storylines WHERE user_id = $1 ORDER BY storyline_id
