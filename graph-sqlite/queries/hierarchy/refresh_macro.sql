UPDATE macros SET description = $2, embedding = coalesce($3, embedding), is_dirty = 0, updated_at = $4,
   storyline_count = (SELECT count(*) FROM macro_storylines WHERE macro_id = $1)
WHERE macro_id = $1
