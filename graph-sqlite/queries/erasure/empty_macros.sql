SELECT macro_id FROM macros m WHERE macro_id IN (SELECT value FROM json_each($1))
  AND NOT EXISTS (SELECT 1 FROM macro_storylines x WHERE x.macro_id = m.macro_id)
