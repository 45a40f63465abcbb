CREATE CONSTRAINT concept_identity IF NOT EXISTS
FOR (c:Concept) REQUIRE (c.name, c.user_id) IS UNIQUE
