SELECT fact_id FROM facts WHERE user_id = $1 AND text = $2 AND is_active = 1
  AND fact_key IS NULL ORDER BY valid_from LIMIT 1
