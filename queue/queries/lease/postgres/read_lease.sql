SELECT refreshed_ms, takeover_ms, finished_ms, CAST(extract(epoch FROM clock_timestamp()) * 1000 AS BIGINT)
FROM cosmo_job_leases WHERE job_id = $1 FOR UPDATE
