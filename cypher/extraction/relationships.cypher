// Semantic links, MERGEd by their deterministic key (one row per distinct key). Every
// link has the single type RELATES; its kind is the `relationship_type` property. The
// Source joins the link's provenance (`source_keys`, each key once): erasing every
// Source a link was drawn from erases the link.
UNWIND $rows AS row
MATCH (a:Semantic {entity_key: row.from_key})
MATCH (b:Semantic {entity_key: row.to_key})
MERGE (a)-[r:RELATES {rel_key: row.rel_key}]->(b)
ON CREATE SET
  r.user_id = $user_id,
  r.relationship_type = row.relationship_type,
  r.description = row.description,
  r.attitude = row.attitude,
  r.proximity = row.proximity,
  r.strength = row.strength,
  r.is_dirty = false,
  r.created_by = $user_id,
  r.salience = row.salience,
  r.state = row.state,
  r.confidence = row.confidence,
  r.access_count = row.access_count,
  r.recall_frequency = row.recall_frequency,
  r.last_recall_interval = row.last_recall_interval,
  r.decay_gradient = row.decay_gradient,
  r.ttl_policy = row.ttl_policy,
  r.pinned = row.pinned,
  r.created_at = $at,
  r.updated_at = $at,
  r.note_ids = [],
  r.note_texts = [],
  r.note_added_by = [],
  r.note_source_ids = [],
  r.note_dates = [],
  r.note_said_at = [],
  r.note_lifetimes = [],
  r.note_expires_at = [],
  r.just_created = true
WITH r, r.just_created IS NOT NULL AS created
REMOVE r.just_created
SET r.source_keys = CASE
      WHEN $source_key IN coalesce(r.source_keys, []) THEN r.source_keys
      ELSE coalesce(r.source_keys, []) + [$source_key] END
RETURN sum(CASE WHEN created THEN 1 ELSE 0 END) AS created_count
