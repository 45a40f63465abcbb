CREATE RANGE INDEX semantic_user IF NOT EXISTS
FOR (n:Semantic) ON (n.user_id)
