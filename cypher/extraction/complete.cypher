// The extraction is complete for this (Source, user), once.
MERGE (e:Extraction {source_key: $source_key, user_id: $user_id})
ON CREATE SET
  e.status = 'extracted',
  e.requested_at = $at,
  e.started_at = $at,
  e.completed_at = $at,
  e.updated_at = $at
WITH e
WHERE e.status <> 'extracted'
SET e.status = 'extracted',
    e.completed_at = $at,
    e.error = null,
    e.updated_at = $at
