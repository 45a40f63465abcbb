DELETE FROM cosmo_job_leases WHERE job_id = $1
