INSERT INTO cosmo_users
    (tenant_id, user_id, graph_user_id, created_at, updated_at)
VALUES ($1, $2, $3, $4, $4) ON CONFLICT DO NOTHING
