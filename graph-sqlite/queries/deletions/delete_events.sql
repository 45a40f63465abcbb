DELETE FROM lifecycle_events WHERE memory_key IN (SELECT value FROM json_each($1))
