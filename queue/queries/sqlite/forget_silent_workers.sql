DELETE FROM Workers
 WHERE strftime('%s', 'now') - last_seen > $1
   AND NOT EXISTS (SELECT 1 FROM Jobs WHERE Jobs.lock_by = Workers.id)
