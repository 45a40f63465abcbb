DELETE FROM Jobs
 WHERE id IN (SELECT id FROM Jobs
               WHERE status = 'Done' AND done_at < CAST(strftime('%s', 'now') AS INTEGER) - $1
               ORDER BY done_at LIMIT $2)
