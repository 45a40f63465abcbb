CREATE RANGE INDEX source_status IF NOT EXISTS
FOR (s:Source) ON (s.processing_status, s.updated_at)
