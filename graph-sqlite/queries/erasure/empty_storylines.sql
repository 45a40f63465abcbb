SELECT storyline_id FROM storylines s WHERE storyline_id IN (SELECT value FROM json_each($1))
  AND NOT EXISTS (SELECT 1 FROM storyline_sources x WHERE x.storyline_id = s.storyline_id)
