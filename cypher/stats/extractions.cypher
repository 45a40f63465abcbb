// memory_stats: the user's own extraction records (of any Source they may read) by
// status.
MATCH (e:Extraction)
WHERE e.user_id = $user_id
RETURN e.status AS status, count(*) AS extractions
