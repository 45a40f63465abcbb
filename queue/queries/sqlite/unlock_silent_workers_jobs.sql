UPDATE Jobs SET lock_by = NULL
 WHERE status NOT IN ('Running', 'Queued')
   AND lock_by IN (SELECT id FROM Workers
                    WHERE strftime('%s', 'now') - last_seen > $1)
