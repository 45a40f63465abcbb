DELETE FROM storylines WHERE storyline_id IN (SELECT value FROM json_each($1))
