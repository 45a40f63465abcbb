INSERT INTO cosmo_api_keys (key_id, tenant_id, key_hash, prefix, label, is_admin, created_at)
VALUES ($1, $2, $3, $4, $5, $6, $7) ON CONFLICT DO NOTHING
