SELECT tenant_id, user_id, job_kind, count(*) AS calls,
   CAST(sum(prompt_tokens) AS BIGINT) AS prompt_tokens,
   CAST(sum(completion_tokens) AS BIGINT) AS completion_tokens
FROM cosmo_usage
WHERE created_at >= $1 AND created_at < $2 AND (CAST($3 AS TEXT) IS NULL OR tenant_id = $3)
GROUP BY tenant_id, user_id, job_kind
ORDER BY tenant_id, user_id, job_kind
