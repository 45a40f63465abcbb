DELETE FROM notes WHERE owner_kind = 'node' AND EXISTS (
    SELECT 1 FROM derived_from d WHERE d.source_key = $1 AND d.entity_key = notes.owner_key
      AND (d.note_id = notes.note_id
           OR (d.note_id IS NULL AND notes.source_id IS NULL AND notes.added_by = $2)))
