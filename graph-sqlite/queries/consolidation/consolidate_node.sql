UPDATE nodes SET description = $2, embedding = coalesce($3, embedding), is_dirty = 0, updated_at = $4
WHERE entity_key = $1
