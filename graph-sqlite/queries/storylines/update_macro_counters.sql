UPDATE macros SET
   storyline_count = (SELECT count(*) FROM macro_storylines WHERE macro_id = $1),
   total_source_count = (SELECT coalesce(sum(st.source_count), 0) FROM macro_storylines ms
       JOIN storylines st ON st.storyline_id = ms.storyline_id WHERE ms.macro_id = $1),
   first_event_at = (SELECT min(st.first_source_at) FROM macro_storylines ms
       JOIN storylines st ON st.storyline_id = ms.storyline_id WHERE ms.macro_id = $1),
   last_event_at = (SELECT max(st.last_source_at) FROM macro_storylines ms
       JOIN storylines st ON st.storyline_id = ms.storyline_id WHERE ms.macro_id = $1)
WHERE macro_id = $1
