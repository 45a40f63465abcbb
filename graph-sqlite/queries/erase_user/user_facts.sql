SELECT fact_id FROM facts WHERE user_id = $1
