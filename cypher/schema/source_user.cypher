CREATE RANGE INDEX source_user IF NOT EXISTS
FOR (s:Source) ON (s.user_id)
