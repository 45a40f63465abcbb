DELETE FROM lifecycle_events WHERE user_id = $1
