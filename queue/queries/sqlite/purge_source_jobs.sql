DELETE FROM Jobs WHERE status <> 'Running'
  AND (idempotency_key = $1 OR substr(idempotency_key, 1, length($1) + 1) = $1 || ':')
