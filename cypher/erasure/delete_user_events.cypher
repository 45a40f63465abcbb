// erase_user: every lifecycle event of theirs.
MATCH (e:LifecycleEvent)
WHERE e.user_id = $user_id
DELETE e
RETURN count(*) AS deleted
