SELECT macro_id FROM macro_storylines WHERE storyline_id IN (SELECT value FROM json_each($1))
