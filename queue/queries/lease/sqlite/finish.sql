UPDATE cosmo_job_leases
   SET finished_ms = CAST(unixepoch('subsec') * 1000 AS INTEGER),
       refreshed_ms = CAST(unixepoch('subsec') * 1000 AS INTEGER)
 WHERE job_id = $1 AND holder = $2
