UPDATE cosmo_job_leases
   SET holder = $2, refreshed_ms = $3, takeover_ms = NULL
 WHERE job_id = $1
