SELECT * FROM relationships WHERE user_id = $1 AND rel_key > $2 ORDER BY rel_key LIMIT $3
