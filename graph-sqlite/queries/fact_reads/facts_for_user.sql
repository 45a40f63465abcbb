SELECT * FROM facts WHERE user_id = $1 AND (is_active = 1 OR $2) AND (confirmed = 1 OR NOT $3)
ORDER BY valid_from DESC, fact_id LIMIT $4
