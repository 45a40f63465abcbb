SELECT refreshed_ms, takeover_ms, finished_ms, CAST(unixepoch('subsec') * 1000 AS INTEGER)
FROM cosmo_job_leases WHERE job_id = $1
