// erase_user deletes a user's whole event log.
CREATE RANGE INDEX lifecycle_event_user IF NOT EXISTS
FOR (e:LifecycleEvent) ON (e.user_id)
