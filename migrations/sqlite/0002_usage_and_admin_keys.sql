-- Admin keys see every tenant's usage and can run operator endpoints.
ALTER TABLE cosmo_api_keys ADD COLUMN is_admin BOOLEAN NOT NULL DEFAULT FALSE;

-- The usage ledger: one row per model call (SPEC §7: every call records tokens used).
CREATE TABLE cosmo_usage (
    usage_id          TEXT PRIMARY KEY,
    tenant_id         TEXT NOT NULL,
    user_id           TEXT NOT NULL,
    job_kind          TEXT NOT NULL,
    provider          TEXT NOT NULL,
    model             TEXT NOT NULL,
    prompt_tokens     BIGINT NOT NULL,
    completion_tokens BIGINT NOT NULL,
    created_at        TEXT NOT NULL
);
CREATE INDEX cosmo_usage_by_time ON cosmo_usage (created_at);
CREATE INDEX cosmo_usage_by_tenant ON cosmo_usage (tenant_id, created_at);
