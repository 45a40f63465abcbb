INSERT INTO cosmo_job_leases (job_id, holder, refreshed_ms)
VALUES ($1, $2, CAST(unixepoch('subsec') * 1000 AS INTEGER))
ON CONFLICT (job_id) DO NOTHING
