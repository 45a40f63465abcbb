// A Source's content passages are keyed `<entity_key>#<ordinal>`, so re-processing a
// Source MERGEs onto the same nodes.
CREATE CONSTRAINT passage_key IF NOT EXISTS
FOR (p:Passage) REQUIRE p.passage_key IS UNIQUE
