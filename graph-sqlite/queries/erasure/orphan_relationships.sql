SELECT rel_key FROM relationships r
WHERE rel_key IN (SELECT value FROM json_each($1))
  AND NOT EXISTS (SELECT 1 FROM relationship_sources s WHERE s.rel_key = r.rel_key)
