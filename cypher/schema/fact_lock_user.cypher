// One fact-write lock per user (facts/lock_user.cypher MERGEs it).
CREATE CONSTRAINT fact_lock_user IF NOT EXISTS
FOR (l:FactLock) REQUIRE l.user_id IS UNIQUE
