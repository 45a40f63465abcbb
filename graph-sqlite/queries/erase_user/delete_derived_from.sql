DELETE FROM derived_from WHERE user_id = $1
