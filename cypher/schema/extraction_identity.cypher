CREATE CONSTRAINT extraction_identity IF NOT EXISTS
FOR (e:Extraction) REQUIRE (e.source_key, e.user_id) IS UNIQUE
