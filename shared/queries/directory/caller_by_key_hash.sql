SELECT tenant_id, is_admin FROM cosmo_api_keys
WHERE key_hash = $1 AND revoked_at IS NULL
