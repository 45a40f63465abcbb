-- A log of changes to what vector search reads (`search_docs`: a memory's vector, its
-- passages' vectors, its visibility and its time), one entry per user whose search a
-- change affects: the owner, and for a Source each participant. Every process keeps
-- the vectors of the users it searches for in memory (`graph/sqlite/vectors.rs`) and
-- reads this log before each vector search, so a write by any connection or process
-- is seen by the next search. Entries are written by triggers, in the transaction of
-- the change, whichever code path makes it. The log prunes itself: every 1,000th entry
-- drops the entries more than 100,000 older (an index that far behind loads anew).

CREATE TABLE search_vector_log (
    seq     INTEGER PRIMARY KEY AUTOINCREMENT,
    user_id TEXT NOT NULL,
    target  TEXT NOT NULL,
    key     TEXT NOT NULL
);
CREATE INDEX search_vector_log_by_user ON search_vector_log (user_id, target, seq);

CREATE TRIGGER search_vector_log_prune AFTER INSERT ON search_vector_log
WHEN new.seq % 1000 = 0 BEGIN
    DELETE FROM search_vector_log WHERE seq <= new.seq - 100000;
END;

CREATE TRIGGER search_docs_vector_insert AFTER INSERT ON search_docs BEGIN
    INSERT INTO search_vector_log (user_id, target, key)
        SELECT new.user_id, new.target, new.key
        UNION SELECT p.user_id, 'source', new.key FROM source_participants p
              WHERE new.target = 'source' AND p.source_key = new.key;
END;

CREATE TRIGGER search_docs_vector_update
AFTER UPDATE OF user_id, visibility, at, embedding, passages ON search_docs
WHEN old.user_id IS NOT new.user_id OR old.visibility IS NOT new.visibility
  OR old.at IS NOT new.at OR old.embedding IS NOT new.embedding
  OR old.passages IS NOT new.passages BEGIN
    INSERT INTO search_vector_log (user_id, target, key)
        SELECT new.user_id, new.target, new.key
        UNION SELECT old.user_id, old.target, old.key
        UNION SELECT p.user_id, 'source', new.key FROM source_participants p
              WHERE new.target = 'source' AND p.source_key = new.key;
END;

CREATE TRIGGER search_docs_vector_delete AFTER DELETE ON search_docs BEGIN
    INSERT INTO search_vector_log (user_id, target, key)
        SELECT old.user_id, old.target, old.key
        UNION SELECT p.user_id, 'source', old.key FROM source_participants p
              WHERE old.target = 'source' AND p.source_key = old.key;
END;

-- Who may read a team Source changes whose searches hold its vectors.
CREATE TRIGGER source_participants_vector_insert AFTER INSERT ON source_participants BEGIN
    INSERT INTO search_vector_log (user_id, target, key)
        VALUES (new.user_id, 'source', new.source_key);
END;

CREATE TRIGGER source_participants_vector_delete AFTER DELETE ON source_participants BEGIN
    INSERT INTO search_vector_log (user_id, target, key)
        VALUES (old.user_id, 'source', old.source_key);
END;
