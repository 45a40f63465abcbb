UPDATE nodes SET is_dirty = 1, updated_at = $2 WHERE entity_key = $1
