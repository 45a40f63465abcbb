UPDATE nodes SET is_owner = 1, identity_name = $2, name = $3, state = $4, salience = $5,
   confidence = $6, ttl_policy = $7, updated_at = $8
WHERE entity_key = $1 AND (is_owner = 0 OR identity_name <> $2 OR name <> $3)
