CREATE TABLE IF NOT EXISTS cosmo_job_leases (
    job_id       TEXT PRIMARY KEY,
    holder       TEXT NOT NULL,
    refreshed_ms BIGINT NOT NULL,
    takeover_ms  BIGINT,
    finished_ms  BIGINT
)
