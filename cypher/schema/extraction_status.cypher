CREATE RANGE INDEX extraction_status IF NOT EXISTS
FOR (e:Extraction) ON (e.status, e.updated_at)
