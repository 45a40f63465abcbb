// erase_user: their mentions, extraction records and fact lock.
OPTIONAL MATCH ()-[m:mentions]->()
WHERE m.user_id = $user_id
DELETE m
WITH count(*) AS mentions
OPTIONAL MATCH (e:Extraction)
WHERE e.user_id = $user_id
DELETE e
WITH count(*) AS extractions
OPTIONAL MATCH (l:FactLock {user_id: $user_id})
DELETE l
