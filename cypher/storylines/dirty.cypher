// refresh-storylines: dirty active/core Storylines whose last Source is after
// `$active_since`; the biggest first.
MATCH (st:Storyline)
WHERE st.is_dirty = true AND st.state IN ['active', 'core'] AND st.last_source_at > $active_since
WITH st
ORDER BY st.source_count DESC, st.storyline_id
LIMIT $limit
RETURN properties(st) AS storyline
