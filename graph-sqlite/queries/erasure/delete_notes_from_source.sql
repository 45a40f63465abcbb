DELETE FROM notes WHERE source_id = $1
