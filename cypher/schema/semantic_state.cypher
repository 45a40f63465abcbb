CREATE RANGE INDEX semantic_state IF NOT EXISTS
FOR (n:Semantic) ON (n.state)
