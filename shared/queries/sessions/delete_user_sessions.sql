DELETE FROM cosmo_sessions WHERE graph_user_id = $1
