UPDATE nodes SET
   source_count = (SELECT count(*) FROM mentions m WHERE m.entity_key = nodes.entity_key),
   first_mentioned_at = (SELECT min(coalesce(s.started_at, s.created_at)) FROM mentions m
       JOIN sources s ON s.entity_key = m.source_key WHERE m.entity_key = nodes.entity_key),
   last_mentioned_at = (SELECT max(coalesce(s.started_at, s.created_at)) FROM mentions m
       JOIN sources s ON s.entity_key = m.source_key WHERE m.entity_key = nodes.entity_key),
   distinct_source_days = (SELECT count(*) FROM node_days d WHERE d.entity_key = nodes.entity_key),
   has_meso = EXISTS (SELECT 1 FROM storylines s WHERE s.anchor_key = nodes.entity_key),
   has_macro = EXISTS (SELECT 1 FROM macros m WHERE m.anchor_key = nodes.entity_key),
   description = '', embedding = NULL, is_dirty = 1, updated_at = $2
WHERE entity_key IN (SELECT value FROM json_each($1))
