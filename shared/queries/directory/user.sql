SELECT tenant_id, user_id, graph_user_id, full_name, created_at, updated_at
FROM cosmo_users WHERE graph_user_id = $1
