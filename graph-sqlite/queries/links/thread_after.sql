SELECT entity_key FROM sources
WHERE thread_key = $1 AND entity_key <> $2
  AND (coalesce(started_at, created_at) > $3
       OR (coalesce(started_at, created_at) = $3 AND entity_key > $2))
ORDER BY coalesce(started_at, created_at) ASC, entity_key ASC LIMIT 1
