// A Macro rooted in an anchor of the same user, created once per id.
MATCH (a:Semantic {entity_key: $anchor_key, user_id: $user_id})
MERGE (m:Macro {macro_id: $macro_id})
ON CREATE SET
  m.user_id = $user_id,
  m.anchor_key = $anchor_key,
  m.description = $description,
  m.description_terms = $description_terms,
  m.description_counts = $description_counts,
  m.description_len = $description_len,
  m.embedding = $embedding,
  m.storyline_count = 0,
  m.total_source_count = 0,
  m.is_dirty = false,
  m.salience = $salience,
  m.state = $state,
  m.confidence = $confidence,
  m.access_count = $access_count,
  m.recall_frequency = $recall_frequency,
  m.last_recall_interval = $last_recall_interval,
  m.decay_gradient = $decay_gradient,
  m.ttl_policy = $ttl_policy,
  m.pinned = $pinned,
  m.created_at = $at,
  m.updated_at = $at,
  m.just_created = true
WITH m, m.just_created IS NOT NULL AS created
REMOVE m.just_created
RETURN created
