SELECT fact_id FROM facts WHERE user_id = $1 AND category = $2 AND fact_key = $3
  AND is_active = 1
