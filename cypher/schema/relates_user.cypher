CREATE RANGE INDEX relates_user IF NOT EXISTS
FOR ()-[r:RELATES]-() ON (r.user_id)
