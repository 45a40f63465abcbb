DELETE FROM cosmo_users WHERE graph_user_id = $1
