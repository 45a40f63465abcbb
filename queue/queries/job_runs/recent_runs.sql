SELECT * FROM cosmo_job_runs WHERE (CAST($1 AS TEXT) IS NULL OR job_kind = $1)
ORDER BY started_at DESC, run_id DESC LIMIT $2
