INSERT INTO notes (owner_key, note_id, owner_kind, user_id, text, added_by, source_id, date_added,
   lifetime, expires_at)
SELECT $1, $2, 'node', user_id, $3, $4, NULL, $5, $6, $7 FROM nodes WHERE entity_key = $1
ON CONFLICT DO NOTHING
