DELETE FROM relationships WHERE user_id = $1
