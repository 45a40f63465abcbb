UPDATE storylines SET source_count = source_count + 1,
   first_source_at = min(coalesce(first_source_at, $2), $2),
   last_source_at = max(coalesce(last_source_at, $2), $2), is_dirty = 1, updated_at = $3
WHERE storyline_id = $1
