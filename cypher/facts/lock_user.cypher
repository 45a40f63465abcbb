// Every fact write of a user runs under this per-user lock, taken first in its
// transaction (MERGE on a uniqueness constraint, then a write): the one-live-value rule
// and supersession hold under concurrent writers, as SQLite's `BEGIN IMMEDIATE` makes
// them. The lock node holds nothing but the user id.
MERGE (l:FactLock {user_id: $user_id})
SET l.just_locked = true
WITH l
REMOVE l.just_locked
