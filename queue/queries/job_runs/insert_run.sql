INSERT INTO cosmo_job_runs (run_id, job_kind, job_id, as_of, started_at, finished_at,
    duration_ms, examined, changed, archived, status, error, details)
VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13)
