SELECT n.entity_key, n.name FROM fact_about a JOIN nodes n ON n.entity_key = a.entity_key
WHERE a.fact_id = $1 ORDER BY n.name, n.entity_key
