SELECT storyline_id FROM storylines WHERE anchor_key IN (SELECT value FROM json_each($1))
