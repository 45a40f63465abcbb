SELECT pg_advisory_xact_lock(hashtext('cosmo_job_leases'))
