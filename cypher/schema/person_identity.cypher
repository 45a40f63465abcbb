CREATE CONSTRAINT person_identity IF NOT EXISTS
FOR (p:Person) REQUIRE (p.canonical_name, p.user_id) IS UNIQUE
