SELECT * FROM macros WHERE is_dirty = 1 AND state IN ('active', 'core')
ORDER BY total_source_count DESC, macro_id LIMIT $1
