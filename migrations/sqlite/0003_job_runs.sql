-- What each maintenance run did (SPEC §4: operators read it at GET /api/admin/jobs/runs).
CREATE TABLE cosmo_job_runs (
    run_id      TEXT PRIMARY KEY,
    job_kind    TEXT NOT NULL,
    job_id      TEXT,
    as_of       TEXT NOT NULL,
    started_at  TEXT NOT NULL,
    finished_at TEXT NOT NULL,
    duration_ms BIGINT NOT NULL,
    examined    BIGINT NOT NULL,
    changed     BIGINT NOT NULL,
    archived    BIGINT NOT NULL,
    status      TEXT NOT NULL,
    error       TEXT,
    details     TEXT NOT NULL
);
CREATE INDEX cosmo_job_runs_by_kind ON cosmo_job_runs (job_kind, started_at);
