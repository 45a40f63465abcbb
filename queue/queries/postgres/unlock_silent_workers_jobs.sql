UPDATE apalis.jobs SET lock_by = NULL
 WHERE status NOT IN ('Running', 'Queued')
   AND lock_by IN (SELECT id FROM apalis.workers
                    WHERE last_seen < now() - make_interval(secs => $1))
