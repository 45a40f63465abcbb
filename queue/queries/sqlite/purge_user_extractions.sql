DELETE FROM Jobs WHERE status <> 'Running' AND job_type = $1
  AND substr(idempotency_key, instr(idempotency_key, ':') + 1) = $2
