-- A user is (tenant, user id): the same id in two tenants is two users with separate
-- memories. The graph, the queue and the usage ledger know each user by one id of its
-- own, `graph_user_id`: the user id itself for the first tenant that used it (every
-- user from before this migration keeps its id), `<tenant>/<user id>` for another
-- tenant's user of the same id. User ids cannot contain `/`, so the two never meet.
ALTER TABLE cosmo_users ADD COLUMN graph_user_id TEXT;
UPDATE cosmo_users SET graph_user_id = user_id;
ALTER TABLE cosmo_users ALTER COLUMN graph_user_id SET NOT NULL;
ALTER TABLE cosmo_users DROP CONSTRAINT cosmo_users_pkey;
ALTER TABLE cosmo_users ADD PRIMARY KEY (tenant_id, user_id);
CREATE UNIQUE INDEX cosmo_users_by_graph_id ON cosmo_users (graph_user_id);
DROP INDEX cosmo_users_by_tenant;
