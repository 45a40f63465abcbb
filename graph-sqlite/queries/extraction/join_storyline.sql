INSERT INTO storyline_sources (storyline_id, source_key)
SELECT storyline_id, $2 FROM storylines WHERE storyline_id = $1 AND user_id = $3
ON CONFLICT DO NOTHING
