// Deletes the lifecycle events of these memories.
MATCH (e:LifecycleEvent)
WHERE e.memory_key IN $memory_keys
DELETE e
RETURN count(*) AS deleted
