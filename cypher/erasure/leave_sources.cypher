// erase_user: they leave the other users' team Sources they took part in.
MATCH (s:Source)-[r:readable_by]->(s)
WHERE r.user_id = $user_id
DELETE r
WITH DISTINCT s
SET s.participants = [p IN coalesce(s.participants, []) WHERE p <> $user_id],
    s.updated_at = $at
