SELECT entity_key FROM nodes n
WHERE entity_key IN (SELECT value FROM json_each($1)) AND is_owner = 0
  AND NOT EXISTS (SELECT 1 FROM mentions m WHERE m.entity_key = n.entity_key)
  AND NOT EXISTS (SELECT 1 FROM derived_from d WHERE d.entity_key = n.entity_key)
