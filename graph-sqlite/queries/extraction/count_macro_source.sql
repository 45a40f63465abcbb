UPDATE macros SET total_source_count = total_source_count + 1,
   last_event_at = max(coalesce(last_event_at, $2), $2), is_dirty = 1, updated_at = $3
WHERE macro_id IN (SELECT macro_id FROM macro_storylines WHERE storyline_id = $1)
