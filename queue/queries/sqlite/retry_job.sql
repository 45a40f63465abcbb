UPDATE Jobs SET status = 'Pending', attempts = 0, run_at = strftime('%s', 'now'),
   lock_by = NULL, lock_at = NULL, done_at = NULL
WHERE id = $1 AND status IN ('Failed', 'Killed', 'Done')
