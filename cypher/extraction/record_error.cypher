// `$status` is `pending` (a retry follows) or `failed` (the job gave up).
MATCH (e:Extraction {source_key: $source_key, user_id: $user_id})
WHERE e.status <> 'extracted'
SET e.status = $status,
    e.error = $error,
    e.updated_at = $at
