CREATE CONSTRAINT semantic_entity_key IF NOT EXISTS
FOR (n:Semantic) REQUIRE n.entity_key IS UNIQUE
