UPDATE storylines SET
   source_count = (SELECT count(*) FROM storyline_sources WHERE storyline_id = $1),
   first_source_at = (SELECT min(coalesce(s.started_at, s.created_at)) FROM storyline_sources ss
       JOIN sources s ON s.entity_key = ss.source_key WHERE ss.storyline_id = $1),
   last_source_at = (SELECT max(coalesce(s.started_at, s.created_at)) FROM storyline_sources ss
       JOIN sources s ON s.entity_key = ss.source_key WHERE ss.storyline_id = $1)
WHERE storyline_id = $1
