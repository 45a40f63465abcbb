UPDATE relationships SET description = $2, notes_embedding = coalesce($3, notes_embedding),
   is_dirty = 0, updated_at = $4
WHERE rel_key = $1
