DELETE FROM apalis.jobs WHERE status <> 'Running' AND job_type = $1
  AND substr(idempotency_key, strpos(idempotency_key, ':') + 1) = $2
