SELECT * FROM notes WHERE owner_key IN (SELECT value FROM json_each($1))
ORDER BY owner_key, date_added, note_id
