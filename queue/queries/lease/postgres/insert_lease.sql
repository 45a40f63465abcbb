INSERT INTO cosmo_job_leases (job_id, holder, refreshed_ms)
VALUES ($1, $2, CAST(extract(epoch FROM clock_timestamp()) * 1000 AS BIGINT))
ON CONFLICT (job_id) DO NOTHING
