// A Storyline about an anchor, created once per id (promoted memories start active).
MATCH (a:Semantic {entity_key: $anchor_key})
MERGE (st:Storyline {storyline_id: $storyline_id})
ON CREATE SET
  st.user_id = $user_id,
  st.anchor_key = $anchor_key,
  st.description = $description,
  st.description_terms = $description_terms,
  st.description_counts = $description_counts,
  st.description_len = $description_len,
  st.embedding = $embedding,
  st.source_count = 0,
  st.is_dirty = false,
  st.salience = $salience,
  st.state = $state,
  st.confidence = $confidence,
  st.access_count = $access_count,
  st.recall_frequency = $recall_frequency,
  st.last_recall_interval = $last_recall_interval,
  st.decay_gradient = $decay_gradient,
  st.ttl_policy = $ttl_policy,
  st.pinned = $pinned,
  st.created_at = $at,
  st.updated_at = $at,
  st.just_created = true
WITH st, st.just_created IS NOT NULL AS created
REMOVE st.just_created
RETURN created
