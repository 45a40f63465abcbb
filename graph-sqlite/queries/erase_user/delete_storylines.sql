DELETE FROM storylines WHERE user_id = $1
