// The Source joins each Storyline once; a Storyline's statistics move only when the
// `includes` link is new; only the user's own Storylines are joined. Returns the ids of
// the Storylines joined now.
MATCH (s:Source {entity_key: $source_key})
UNWIND $storyline_ids AS storyline_id
MATCH (st:Storyline {storyline_id: storyline_id})
WHERE st.user_id = $user_id
MERGE (st)-[i:includes]->(s)
ON CREATE SET i.just_created = true
WITH st, i, i.just_created IS NOT NULL AS joined
REMOVE i.just_created
WITH st, joined
WHERE joined
SET st.source_count = coalesce(st.source_count, 0) + 1,
    st.first_source_at = CASE
      WHEN st.first_source_at IS NULL OR $event_time < st.first_source_at THEN $event_time
      ELSE st.first_source_at END,
    st.last_source_at = CASE
      WHEN st.last_source_at IS NULL OR $event_time > st.last_source_at THEN $event_time
      ELSE st.last_source_at END,
    st.is_dirty = true,
    st.updated_at = $at
RETURN collect(st.storyline_id) AS joined_ids
