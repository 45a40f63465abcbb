INSERT OR IGNORE INTO fact_about (fact_id, entity_key)
SELECT $1, entity_key FROM nodes
WHERE user_id = $2 AND entity_key IN (SELECT value FROM json_each($3))
