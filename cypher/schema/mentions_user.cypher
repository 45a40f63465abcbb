CREATE RANGE INDEX mentions_user IF NOT EXISTS
FOR ()-[m:mentions]-() ON (m.user_id)
