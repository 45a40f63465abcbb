SELECT fact_id FROM facts WHERE supersedes = $1 LIMIT 1
