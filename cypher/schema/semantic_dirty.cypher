CREATE RANGE INDEX semantic_dirty IF NOT EXISTS
FOR (n:Semantic) ON (n.is_dirty)
