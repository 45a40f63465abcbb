UPDATE macros SET
   storyline_count = (SELECT count(*) FROM macro_storylines x WHERE x.macro_id = macros.macro_id),
   total_source_count = (SELECT coalesce(sum(s.source_count), 0) FROM macro_storylines x
       JOIN storylines s ON s.storyline_id = x.storyline_id WHERE x.macro_id = macros.macro_id),
   first_event_at = (SELECT min(s.first_source_at) FROM macro_storylines x
       JOIN storylines s ON s.storyline_id = x.storyline_id WHERE x.macro_id = macros.macro_id),
   last_event_at = (SELECT max(s.last_source_at) FROM macro_storylines x
       JOIN storylines s ON s.storyline_id = x.storyline_id WHERE x.macro_id = macros.macro_id),
   description = '', embedding = NULL, is_dirty = 1, updated_at = $2
WHERE macro_id IN (SELECT value FROM json_each($1))
