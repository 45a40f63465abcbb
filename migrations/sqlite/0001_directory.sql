-- Tenants, API keys and users: who may call Cosmo and whose memory is whose.
CREATE TABLE cosmo_tenants (
    tenant_id  TEXT PRIMARY KEY,
    name       TEXT NOT NULL,
    created_at TEXT NOT NULL
);

-- Keys are stored as SHA-256 hashes; `prefix` tells them apart in listings.
CREATE TABLE cosmo_api_keys (
    key_id     TEXT PRIMARY KEY,
    tenant_id  TEXT NOT NULL REFERENCES cosmo_tenants (tenant_id),
    key_hash   TEXT NOT NULL UNIQUE,
    prefix     TEXT NOT NULL,
    label      TEXT NOT NULL,
    created_at TEXT NOT NULL,
    revoked_at TEXT
);

-- A user id belongs to exactly one tenant: the first to use it.
CREATE TABLE cosmo_users (
    user_id    TEXT PRIMARY KEY,
    tenant_id  TEXT NOT NULL REFERENCES cosmo_tenants (tenant_id),
    full_name  TEXT,
    created_at TEXT NOT NULL,
    updated_at TEXT NOT NULL
);
CREATE INDEX cosmo_users_by_tenant ON cosmo_users (tenant_id);
