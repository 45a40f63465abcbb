SELECT * FROM nodes WHERE user_id = $1 AND entity_key > $2 ORDER BY entity_key LIMIT $3
