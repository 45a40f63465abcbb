UPDATE macros SET is_dirty = 1, updated_at = $3,
   total_source_count = total_source_count + (SELECT source_count FROM storylines WHERE storyline_id = $1),
   last_event_at = max(coalesce(last_event_at, 0),
       (SELECT coalesce(last_source_at, 0) FROM storylines WHERE storyline_id = $1)),
   first_event_at = min(coalesce(first_event_at, 9223372036854775807),
       (SELECT coalesce(first_source_at, 9223372036854775807) FROM storylines WHERE storyline_id = $1))
WHERE anchor_key = $2
