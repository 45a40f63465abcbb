DELETE FROM apalis.jobs
 WHERE id IN (SELECT id FROM apalis.jobs
               WHERE status = 'Done' AND done_at < now() - make_interval(secs => $1)
               ORDER BY done_at LIMIT $2)
