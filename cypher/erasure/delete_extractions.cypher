// Deletes the extraction records of these Sources.
MATCH (e:Extraction)
WHERE e.source_key IN $source_keys
DELETE e
