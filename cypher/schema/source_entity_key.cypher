CREATE CONSTRAINT source_entity_key IF NOT EXISTS
FOR (s:Source) REQUIRE s.entity_key IS UNIQUE
