DELETE FROM cosmo_session_chunks WHERE graph_user_id = $1
