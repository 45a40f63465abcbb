-- Note search (SPEC: notes, facts and relationship notes are searchable memories): the
-- notes on nodes and relationships are searched by their own words, so what an
-- extraction noted ("Sarah Chen wants the hiring plan done by March.") and what
-- episodic consolidation distilled (an insight note) reach explore and context before
-- `consolidate-descriptions` has written any description.
--
-- One `note_docs` row per note gives it a stable integer id (the `notes` table has a
-- text primary key, and its implicit rowid may change on VACUUM); a contentless FTS5
-- table keyed by that id holds the note's text, with the tokenizer of the other search
-- indexes (0003: `porter unicode61 remove_diacritics 2`). Triggers on `notes` keep both
-- in step with every write, whichever code path makes it (extraction, consolidation
-- insights, cleanup-notes, erasure). Scope, owners' state, expiry and provenance are
-- read from `notes`, `nodes`, `relationships` and `derived_from` at query time.
--
-- Erasure must leave no trace: FTS5 `secure-delete` removes a deleted note's terms from
-- the index at once (with `PRAGMA secure_delete`, set on every connection, freed pages
-- are zeroed).

CREATE TABLE note_docs (
    doc_id    INTEGER PRIMARY KEY,
    owner_key TEXT NOT NULL,
    note_id   TEXT NOT NULL,
    UNIQUE (owner_key, note_id)
);

CREATE VIRTUAL TABLE notes_fts USING fts5(text, content = '',
    tokenize = 'porter unicode61 remove_diacritics 2');
INSERT INTO notes_fts (notes_fts, rank) VALUES ('secure-delete', 1);

CREATE TRIGGER notes_search_insert AFTER INSERT ON notes BEGIN
    INSERT INTO note_docs (owner_key, note_id) VALUES (new.owner_key, new.note_id);
    INSERT INTO notes_fts (rowid, text) VALUES (last_insert_rowid(), new.text);
END;
CREATE TRIGGER notes_search_text AFTER UPDATE OF text ON notes
WHEN old.text IS NOT new.text BEGIN
    INSERT INTO notes_fts (notes_fts, rowid, text)
        SELECT 'delete', doc_id, old.text FROM note_docs
        WHERE owner_key = old.owner_key AND note_id = old.note_id;
    INSERT INTO notes_fts (rowid, text)
        SELECT doc_id, new.text FROM note_docs
        WHERE owner_key = new.owner_key AND note_id = new.note_id;
END;
CREATE TRIGGER notes_search_key AFTER UPDATE OF owner_key, note_id ON notes
WHEN old.owner_key IS NOT new.owner_key OR old.note_id IS NOT new.note_id BEGIN
    UPDATE note_docs SET owner_key = new.owner_key, note_id = new.note_id
    WHERE owner_key = old.owner_key AND note_id = old.note_id;
END;
CREATE TRIGGER notes_search_delete AFTER DELETE ON notes BEGIN
    INSERT INTO notes_fts (notes_fts, rowid, text)
        SELECT 'delete', doc_id, old.text FROM note_docs
        WHERE owner_key = old.owner_key AND note_id = old.note_id;
    DELETE FROM note_docs WHERE owner_key = old.owner_key AND note_id = old.note_id;
END;

-- What was stored before this migration.
INSERT INTO note_docs (owner_key, note_id) SELECT owner_key, note_id FROM notes;
INSERT INTO notes_fts (rowid, text)
    SELECT d.doc_id, n.text
    FROM notes n JOIN note_docs d ON d.owner_key = n.owner_key AND d.note_id = n.note_id;
