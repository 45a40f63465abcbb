DELETE FROM cosmo_job_leases
 WHERE refreshed_ms < CAST(extract(epoch FROM clock_timestamp()) * 1000 AS BIGINT)
                      - CAST($1 * 1000 AS BIGINT)
