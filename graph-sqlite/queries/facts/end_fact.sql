UPDATE facts SET is_active = 0, valid_to = $2, updated_at = $2 WHERE fact_id = $1
