DELETE FROM notes WHERE owner_kind = 'relationship'
  AND owner_key IN (SELECT value FROM json_each($1))
