SELECT * FROM storylines WHERE is_dirty = 1 AND state IN ('active', 'core') AND last_source_at > $1
ORDER BY source_count DESC, storyline_id LIMIT $2
