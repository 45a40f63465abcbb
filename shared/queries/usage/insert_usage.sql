INSERT INTO cosmo_usage (usage_id, tenant_id, user_id, job_kind, provider, model,
   prompt_tokens, completion_tokens, created_at)
VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)
