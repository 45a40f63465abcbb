// One owner Person per user: only the owner carries `owner_of` (= its user id).
CREATE CONSTRAINT person_owner IF NOT EXISTS
FOR (p:Person) REQUIRE p.owner_of IS UNIQUE
