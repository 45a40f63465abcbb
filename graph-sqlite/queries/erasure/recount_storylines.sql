UPDATE storylines SET
   source_count = (SELECT count(*) FROM storyline_sources x WHERE x.storyline_id = storylines.storyline_id),
   first_source_at = (SELECT min(coalesce(s.started_at, s.created_at)) FROM storyline_sources x
       JOIN sources s ON s.entity_key = x.source_key WHERE x.storyline_id = storylines.storyline_id),
   last_source_at = (SELECT max(coalesce(s.started_at, s.created_at)) FROM storyline_sources x
       JOIN sources s ON s.entity_key = x.source_key WHERE x.storyline_id = storylines.storyline_id),
   description = '', embedding = NULL, is_dirty = 1, updated_at = $2
WHERE storyline_id IN (SELECT value FROM json_each($1))
