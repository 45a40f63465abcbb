UPDATE cosmo_job_leases
   SET finished_ms = CAST(extract(epoch FROM clock_timestamp()) * 1000 AS BIGINT),
       refreshed_ms = CAST(extract(epoch FROM clock_timestamp()) * 1000 AS BIGINT)
 WHERE job_id = $1 AND holder = $2
