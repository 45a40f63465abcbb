DELETE FROM cosmo_usage WHERE user_id = $1
