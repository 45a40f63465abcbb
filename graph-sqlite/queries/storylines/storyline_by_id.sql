SELECT * FROM storylines WHERE storyline_id = $1
