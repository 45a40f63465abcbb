// The Sources a user may read (owner and participants), for scoped search.
CREATE RANGE INDEX readable_by_user IF NOT EXISTS
FOR ()-[r:readable_by]-() ON (r.user_id)
