DELETE FROM macros WHERE user_id = $1
