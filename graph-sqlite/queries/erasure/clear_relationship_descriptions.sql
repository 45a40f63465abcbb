UPDATE relationships SET description = '', notes_embedding = NULL, is_dirty = 1, updated_at = $2
WHERE rel_key IN (SELECT value FROM json_each($1))
