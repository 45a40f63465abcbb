DELETE FROM cosmo_job_leases
 WHERE refreshed_ms < CAST(unixepoch('subsec') * 1000 AS INTEGER) - $1 * 1000
