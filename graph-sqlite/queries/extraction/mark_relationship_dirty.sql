UPDATE relationships SET is_dirty = 1, updated_at = $2 WHERE rel_key = $1
