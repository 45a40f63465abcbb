DELETE FROM notes WHERE owner_kind = 'node' AND owner_key IN (SELECT value FROM json_each($1))
