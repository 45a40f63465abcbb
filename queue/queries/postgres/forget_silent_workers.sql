DELETE FROM apalis.workers w
 WHERE w.last_seen < now() - make_interval(secs => $1)
   AND NOT EXISTS (SELECT 1 FROM apalis.jobs j WHERE j.lock_by = w.id)
