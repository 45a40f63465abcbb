INSERT INTO notes (owner_key, note_id, owner_kind, user_id, text, added_by, source_id,
   date_added, lifetime, expires_at, said_at)
VALUES ($1, $2, $3, $4, $5, $4, $6, $7, $8, $9, $10) ON CONFLICT DO NOTHING
