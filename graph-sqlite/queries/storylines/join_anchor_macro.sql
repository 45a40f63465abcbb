INSERT INTO macro_storylines (macro_id, storyline_id)
SELECT macro_id, $1 FROM macros WHERE anchor_key = $2 ON CONFLICT DO NOTHING
