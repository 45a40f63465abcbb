UPDATE cosmo_users SET full_name = $2, updated_at = $3 WHERE graph_user_id = $1
