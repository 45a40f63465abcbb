SELECT user_id, thread_key, coalesce(started_at, created_at) AS event_at
FROM sources WHERE entity_key = $1
