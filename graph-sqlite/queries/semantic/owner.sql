SELECT * FROM nodes WHERE user_id = $1 AND is_owner = 1
