UPDATE cosmo_job_leases
   SET refreshed_ms = CAST(extract(epoch FROM clock_timestamp()) * 1000 AS BIGINT)
 WHERE job_id = $1 AND holder = $2 AND finished_ms IS NULL
