// The lifecycle event log: one node per state change, one row per distinct event id. The
// id is derived from the event's memory, new state, reason and time, so recording the
// same event again keeps the first one.
UNWIND $rows AS row
MERGE (e:LifecycleEvent {event_id: row.event_id})
ON CREATE SET
  e.memory_kind = row.memory_kind,
  e.memory_key = row.memory_key,
  e.user_id = row.user_id,
  e.previous_state = row.previous_state,
  e.new_state = row.new_state,
  e.reason = row.reason,
  e.actor = row.actor,
  e.at = row.at
