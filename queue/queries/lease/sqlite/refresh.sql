UPDATE cosmo_job_leases
   SET refreshed_ms = CAST(unixepoch('subsec') * 1000 AS INTEGER)
 WHERE job_id = $1 AND holder = $2 AND finished_ms IS NULL
