DELETE FROM notes WHERE user_id = $1
