CREATE RANGE INDEX source_embedded_with IF NOT EXISTS
FOR (s:Source) ON (s.embedded_with)
