SELECT key_id, tenant_id, prefix, label, is_admin, created_at, revoked_at
FROM cosmo_api_keys ORDER BY created_at, key_id
