UPDATE nodes SET
   has_meso = EXISTS (SELECT 1 FROM storylines s WHERE s.anchor_key = nodes.entity_key),
   has_macro = EXISTS (SELECT 1 FROM macros m WHERE m.anchor_key = nodes.entity_key)
WHERE (has_meso = 1 AND NOT EXISTS (SELECT 1 FROM storylines s WHERE s.anchor_key = nodes.entity_key))
   OR (has_macro = 1 AND NOT EXISTS (SELECT 1 FROM macros m WHERE m.anchor_key = nodes.entity_key))
