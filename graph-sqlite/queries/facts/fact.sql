SELECT * FROM facts WHERE fact_id = $1
