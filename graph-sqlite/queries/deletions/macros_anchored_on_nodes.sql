SELECT macro_id FROM macros WHERE anchor_key IN (SELECT value FROM json_each($1))
