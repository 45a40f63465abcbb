CREATE INDEX IF NOT EXISTS cosmo_jobs_done_at ON apalis.jobs (done_at) WHERE status = 'Done'
