// MERGE by identity with the lifecycle defaults of a new memory (computed in Rust, one
// row per distinct identity). `just_created` marks nodes this MERGE created; it is read
// and removed in the same statement, so it is never committed.
UNWIND $rows AS row
MERGE (n:Semantic:Concept {name: row.name, user_id: $user_id})
ON CREATE SET
  n.display_name = row.display_name,
  n.entity_key = row.entity_key,
  n.description = '',
  n.name_terms = row.name_terms,
  n.name_counts = row.name_counts,
  n.name_len = row.name_len,
  n.description_terms = [],
  n.description_counts = [],
  n.description_len = 0,
  n.created_by = $user_id,
  n.source_count = 0,
  n.distinct_source_days = 0,
  n.distinct_days = [],
  n.has_meso = false,
  n.has_macro = false,
  n.is_dirty = false,
  n.salience = row.salience,
  n.state = row.state,
  n.confidence = row.confidence,
  n.access_count = row.access_count,
  n.recall_frequency = row.recall_frequency,
  n.last_recall_interval = row.last_recall_interval,
  n.decay_gradient = row.decay_gradient,
  n.ttl_policy = row.ttl_policy,
  n.pinned = row.pinned,
  n.created_at = $at,
  n.updated_at = $at,
  n.note_ids = [],
  n.note_texts = [],
  n.note_added_by = [],
  n.note_source_ids = [],
  n.note_dates = [],
  n.note_said_at = [],
  n.note_lifetimes = [],
  n.note_expires_at = [],
  n.just_created = true
WITH row, n, n.just_created IS NOT NULL AS created
REMOVE n.just_created
RETURN row.entity_key AS requested_key, n.entity_key AS entity_key, created
