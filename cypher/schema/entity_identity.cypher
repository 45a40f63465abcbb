CREATE CONSTRAINT entity_identity IF NOT EXISTS
FOR (e:Entity) REQUIRE (e.name, e.type, e.user_id) IS UNIQUE
