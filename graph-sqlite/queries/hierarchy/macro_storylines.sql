SELECT st.* FROM macro_storylines ms JOIN storylines st ON st.storyline_id = ms.storyline_id
WHERE ms.macro_id = $1 ORDER BY st.first_source_at, st.storyline_id
