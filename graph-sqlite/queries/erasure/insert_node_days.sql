INSERT OR IGNORE INTO node_days (entity_key, day)
SELECT m.entity_key, date(coalesce(s.started_at, s.created_at) / 1000000, 'unixepoch')
FROM mentions m JOIN sources s ON s.entity_key = m.source_key
WHERE m.entity_key IN (SELECT value FROM json_each($1))
