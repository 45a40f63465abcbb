CREATE RANGE INDEX extraction_user IF NOT EXISTS
FOR (e:Extraction) ON (e.user_id)
