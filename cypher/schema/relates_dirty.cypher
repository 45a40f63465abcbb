CREATE RANGE INDEX relates_dirty IF NOT EXISTS
FOR ()-[r:RELATES]-() ON (r.is_dirty)
