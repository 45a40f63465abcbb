CREATE RANGE INDEX lifecycle_event_memory IF NOT EXISTS
FOR (e:LifecycleEvent) ON (e.memory_key)
