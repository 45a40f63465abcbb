CREATE FULLTEXT INDEX source_text IF NOT EXISTS
FOR (s:Source) ON EACH [s.summary, s.content]
