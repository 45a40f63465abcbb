CREATE CONSTRAINT lifecycle_event_id IF NOT EXISTS
FOR (e:LifecycleEvent) REQUIRE e.event_id IS UNIQUE
