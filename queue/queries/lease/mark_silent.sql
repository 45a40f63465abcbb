UPDATE cosmo_job_leases SET takeover_ms = $2 WHERE job_id = $1
