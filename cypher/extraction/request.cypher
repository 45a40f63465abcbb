// A user asks for their extraction of a Source: a new record is `pending`; an existing
// one is kept, except that a `failed` one goes back to `pending`.
MATCH (s:Source {entity_key: $source_key})
MERGE (e:Extraction {source_key: $source_key, user_id: $user_id})
ON CREATE SET
  e.status = 'pending',
  e.requested_at = $at,
  e.updated_at = $at
WITH e
WHERE e.status = 'failed'
SET e.status = 'pending',
    e.updated_at = $at
