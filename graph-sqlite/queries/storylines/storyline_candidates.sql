SELECT st.* FROM storylines st JOIN nodes n ON n.entity_key = st.anchor_key
WHERE n.user_id = $1 AND n.kind = $2 AND n.identity_name = $3 AND n.entity_type = $4
  AND n.has_meso = 1 AND st.state IN ('active', 'core') AND st.last_source_at > $5
ORDER BY st.last_source_at DESC LIMIT 3
