// Relationship property uniqueness constraints exist since Neo4j 5.7, in Community Edition too.
CREATE CONSTRAINT relates_rel_key IF NOT EXISTS
FOR ()-[r:RELATES]-() REQUIRE r.rel_key IS UNIQUE
