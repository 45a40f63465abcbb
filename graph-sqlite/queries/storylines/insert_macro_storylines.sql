INSERT INTO macro_storylines (macro_id, storyline_id)
SELECT $1, storyline_id FROM storylines
WHERE user_id = $2 AND storyline_id IN (SELECT value FROM json_each($3))
ON CONFLICT DO NOTHING
