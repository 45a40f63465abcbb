CREATE RANGE INDEX extraction_source IF NOT EXISTS
FOR (e:Extraction) ON (e.source_key)
