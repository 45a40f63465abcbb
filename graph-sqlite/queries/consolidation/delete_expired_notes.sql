DELETE FROM notes WHERE rowid IN (
   SELECT rowid FROM notes WHERE expires_at IS NOT NULL AND expires_at <= $1 LIMIT $2)
