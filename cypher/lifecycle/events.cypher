// A memory's state changes, oldest first.
MATCH (e:LifecycleEvent {memory_key: $memory_key})
WITH e
ORDER BY e.at, e.event_id
RETURN properties(e) AS event
