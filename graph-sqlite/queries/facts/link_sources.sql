INSERT OR IGNORE INTO fact_sources (fact_id, source_key)
SELECT $1, source_key FROM source_participants
WHERE user_id = $2 AND source_key IN (SELECT value FROM json_each($3))
