SELECT * FROM lifecycle_events WHERE memory_key = $1 ORDER BY at, event_id
