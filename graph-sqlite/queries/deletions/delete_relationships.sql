DELETE FROM relationships WHERE rel_key IN (SELECT value FROM json_each($1))
