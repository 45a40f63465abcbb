// The consolidated Sources leave default retrieval: each distinct Source not yet
// archived, not pinned and not kept forever becomes `archived` (raw content kept). Returns the archived
// ones with their previous state, for the event log. Only the user's own Sources.
UNWIND $source_keys AS source_key
MATCH (s:Source {entity_key: source_key})
WHERE s.user_id = $user_id
// Write-lock the Source before reading its state (the marker is removed at once; the
// lock lasts until commit), so a concurrent state change cannot be lost.
SET s.just_locked = true
WITH s
REMOVE s.just_locked
WITH s, s.state AS previous
WHERE previous <> 'archived' AND NOT coalesce(s.pinned, false)
  AND coalesce(s.ttl_policy, 'decay') <> 'keep_forever'
SET s.state = 'archived',
    s.updated_at = $at
RETURN s.entity_key AS entity_key, previous
