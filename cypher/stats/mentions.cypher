// memory_stats: the `mentions` links the user's extractions made.
MATCH (:Source)-[m:mentions]->()
WHERE m.user_id = $user_id
RETURN count(m) AS mentions
