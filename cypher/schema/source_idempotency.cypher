CREATE CONSTRAINT source_idempotency IF NOT EXISTS
FOR (s:Source) REQUIRE (s.user_id, s.idempotency_key) IS UNIQUE
