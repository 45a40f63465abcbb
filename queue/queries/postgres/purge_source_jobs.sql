DELETE FROM apalis.jobs WHERE status <> 'Running'
  AND (idempotency_key = ANY($1)
       OR split_part(idempotency_key, ':', 1) = ANY($1))
