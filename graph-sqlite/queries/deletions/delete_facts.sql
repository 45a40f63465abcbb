DELETE FROM facts WHERE fact_id IN (SELECT value FROM json_each($1))
