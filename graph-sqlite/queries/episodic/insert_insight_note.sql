-- Said at the latest event time of the Sources it comes from ($8: their keys, JSON).
INSERT INTO notes (owner_key, note_id, owner_kind, user_id, text, added_by, source_id, date_added,
   lifetime, expires_at, said_at)
SELECT $1, $2, 'node', user_id, $3, $4, NULL, $5, $6, $7,
       coalesce((SELECT max(coalesce(s.started_at, s.created_at)) FROM sources s
                 WHERE s.entity_key IN (SELECT value FROM json_each($8))), $5)
FROM nodes WHERE entity_key = $1
ON CONFLICT DO NOTHING
