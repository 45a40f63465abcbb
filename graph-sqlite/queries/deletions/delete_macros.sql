DELETE FROM macros WHERE macro_id IN (SELECT value FROM json_each($1))
