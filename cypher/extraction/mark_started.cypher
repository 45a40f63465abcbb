// Creates the record if the job came before the request; a completed extraction stays
// completed.
MATCH (s:Source {entity_key: $source_key})
MERGE (e:Extraction {source_key: $source_key, user_id: $user_id})
ON CREATE SET
  e.status = 'pending',
  e.requested_at = $at,
  e.updated_at = $at
WITH e
WHERE e.status <> 'extracted'
SET e.status = 'in_progress',
    e.started_at = $at,
    e.updated_at = $at
