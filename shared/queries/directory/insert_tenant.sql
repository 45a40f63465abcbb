INSERT INTO cosmo_tenants (tenant_id, name, created_at) VALUES ($1, $1, $2)
ON CONFLICT DO NOTHING
