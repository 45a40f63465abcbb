// refresh-macros: dirty active/core Macros, the biggest first.
MATCH (m:Macro)
WHERE m.is_dirty = true AND m.state IN ['active', 'core']
WITH m
ORDER BY m.total_source_count DESC, m.macro_id
LIMIT $limit
RETURN properties(m) AS macro
