-- A user is (tenant, user id): the same id in two tenants is two users with separate
-- memories. The graph, the queue and the usage ledger know each user by one id of its
-- own, `graph_user_id`: the user id itself for the first tenant that used it (every
-- user from before this migration keeps its id), `<tenant>/<user id>` for another
-- tenant's user of the same id. User ids cannot contain `/`, so the two never meet.
CREATE TABLE cosmo_users_of_tenants (
    tenant_id     TEXT NOT NULL REFERENCES cosmo_tenants (tenant_id),
    user_id       TEXT NOT NULL,
    graph_user_id TEXT NOT NULL UNIQUE,
    full_name     TEXT,
    created_at    TEXT NOT NULL,
    updated_at    TEXT NOT NULL,
    PRIMARY KEY (tenant_id, user_id)
);
INSERT INTO cosmo_users_of_tenants
    (tenant_id, user_id, graph_user_id, full_name, created_at, updated_at)
    SELECT tenant_id, user_id, user_id, full_name, created_at, updated_at FROM cosmo_users;
DROP TABLE cosmo_users;
ALTER TABLE cosmo_users_of_tenants RENAME TO cosmo_users;
