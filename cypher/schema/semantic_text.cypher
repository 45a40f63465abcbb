CREATE FULLTEXT INDEX semantic_text IF NOT EXISTS
FOR (n:Person|Concept|Entity) ON EACH [n.name, n.display_name, n.description]
