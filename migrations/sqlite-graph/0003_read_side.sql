-- The read side (SPEC §5, §6): facts; who takes part in which Source; provenance that
-- erasure follows; and the search indexes — one row per searchable memory in
-- `search_docs` (its vector, visibility and time, under a stable integer id) and one
-- contentless FTS5 table per kind keyed by that id. Triggers on the memory tables keep
-- both in step with every write, whichever code path makes it.
--
-- Erasure must leave no trace: FTS5 `secure-delete` removes a deleted row's terms from
-- the index at once (with `PRAGMA secure_delete`, set on every connection, freed pages
-- are zeroed).

-- ---- facts (seeds 003, 004) ----

CREATE TABLE facts (
    fact_id              TEXT PRIMARY KEY,
    user_id              TEXT NOT NULL,
    text                 TEXT NOT NULL,
    category             TEXT,
    fact_key             TEXT,
    value                TEXT,
    is_active            INTEGER NOT NULL DEFAULT 1,
    valid_from           INTEGER NOT NULL,
    valid_to             INTEGER,
    confirmed            INTEGER NOT NULL DEFAULT 0,
    supersedes           TEXT REFERENCES facts (fact_id) ON DELETE SET NULL,
    embedding            BLOB,
    salience             REAL NOT NULL,
    state                TEXT NOT NULL,
    confidence           REAL NOT NULL,
    access_count         INTEGER NOT NULL,
    recall_frequency     INTEGER NOT NULL,
    last_recall_interval REAL NOT NULL,
    decay_gradient       REAL NOT NULL,
    last_accessed_at     INTEGER,
    last_decayed_at      INTEGER,
    ttl_policy           TEXT NOT NULL,
    pinned               INTEGER NOT NULL DEFAULT 0,
    created_at           INTEGER NOT NULL,
    updated_at           INTEGER NOT NULL
);
CREATE INDEX facts_by_user ON facts (user_id, valid_from);
CREATE INDEX facts_by_supersedes ON facts (supersedes);
-- One live value per (user, category, key).
CREATE UNIQUE INDEX facts_one_live_value ON facts (user_id, category, fact_key)
    WHERE is_active = 1 AND category IS NOT NULL AND fact_key IS NOT NULL;

CREATE TABLE fact_about (
    fact_id    TEXT NOT NULL REFERENCES facts (fact_id) ON DELETE CASCADE,
    entity_key TEXT NOT NULL REFERENCES nodes (entity_key) ON DELETE CASCADE,
    PRIMARY KEY (fact_id, entity_key)
);
CREATE INDEX fact_about_by_node ON fact_about (entity_key);

CREATE TABLE fact_sources (
    fact_id    TEXT NOT NULL REFERENCES facts (fact_id) ON DELETE CASCADE,
    source_key TEXT NOT NULL REFERENCES sources (entity_key) ON DELETE CASCADE,
    PRIMARY KEY (fact_id, source_key)
);
CREATE INDEX fact_sources_by_source ON fact_sources (source_key);

-- ---- who may read a Source: its owner and its team participants ----

CREATE TABLE source_participants (
    user_id    TEXT NOT NULL,
    source_key TEXT NOT NULL REFERENCES sources (entity_key) ON DELETE CASCADE,
    PRIMARY KEY (user_id, source_key)
);
CREATE INDEX source_participants_by_source ON source_participants (source_key);
INSERT INTO source_participants (user_id, source_key)
    SELECT DISTINCT j.value, s.entity_key FROM sources s, json_each(s.participants) j
    UNION SELECT s.user_id, s.entity_key FROM sources s;

CREATE TRIGGER sources_participants_insert AFTER INSERT ON sources BEGIN
    INSERT OR IGNORE INTO source_participants (user_id, source_key)
        SELECT j.value, new.entity_key FROM json_each(new.participants) j;
    INSERT OR IGNORE INTO source_participants (user_id, source_key)
        VALUES (new.user_id, new.entity_key);
END;
CREATE TRIGGER sources_participants_update AFTER UPDATE OF participants ON sources BEGIN
    DELETE FROM source_participants
        WHERE source_key = new.entity_key AND user_id <> new.user_id
          AND user_id NOT IN (SELECT j.value FROM json_each(new.participants) j);
    INSERT OR IGNORE INTO source_participants (user_id, source_key)
        SELECT j.value, new.entity_key FROM json_each(new.participants) j;
END;

-- ---- provenance for erasure ----

-- Which Sources a relationship was drawn from.
CREATE TABLE relationship_sources (
    rel_key    TEXT NOT NULL REFERENCES relationships (rel_key) ON DELETE CASCADE,
    source_key TEXT NOT NULL REFERENCES sources (entity_key) ON DELETE CASCADE,
    PRIMARY KEY (rel_key, source_key)
);
CREATE INDEX relationship_sources_by_source ON relationship_sources (source_key);
INSERT OR IGNORE INTO relationship_sources (rel_key, source_key)
    SELECT n.owner_key, n.source_id FROM notes n
    WHERE n.owner_kind = 'relationship' AND n.source_id IN (SELECT entity_key FROM sources)
      AND n.owner_key IN (SELECT rel_key FROM relationships);

-- The insight note a consolidated Source went into.
ALTER TABLE derived_from ADD COLUMN note_id TEXT;

-- ---- search ----

-- visibility: 0 default retrieval, 1 archived (only when asked), 2 never (a superseded
-- fact). `at` is the memory's time for range filters.
CREATE TABLE search_docs (
    doc_id     INTEGER PRIMARY KEY,
    target     TEXT NOT NULL,
    key        TEXT NOT NULL,
    user_id    TEXT NOT NULL,
    visibility INTEGER NOT NULL,
    at         INTEGER NOT NULL,
    embedding  BLOB,
    UNIQUE (target, key)
);
CREATE INDEX search_docs_by_user ON search_docs (user_id, target);

CREATE VIRTUAL TABLE sources_fts USING fts5(summary, content, keywords, content = '',
    tokenize = 'porter unicode61 remove_diacritics 2');
CREATE VIRTUAL TABLE nodes_fts USING fts5(name, description, content = '',
    tokenize = 'porter unicode61 remove_diacritics 2');
CREATE VIRTUAL TABLE storylines_fts USING fts5(description, content = '',
    tokenize = 'porter unicode61 remove_diacritics 2');
CREATE VIRTUAL TABLE macros_fts USING fts5(description, content = '',
    tokenize = 'porter unicode61 remove_diacritics 2');
CREATE VIRTUAL TABLE facts_fts USING fts5(text, value, content = '',
    tokenize = 'porter unicode61 remove_diacritics 2');
INSERT INTO sources_fts (sources_fts, rank) VALUES ('secure-delete', 1);
INSERT INTO nodes_fts (nodes_fts, rank) VALUES ('secure-delete', 1);
INSERT INTO storylines_fts (storylines_fts, rank) VALUES ('secure-delete', 1);
INSERT INTO macros_fts (macros_fts, rank) VALUES ('secure-delete', 1);
INSERT INTO facts_fts (facts_fts, rank) VALUES ('secure-delete', 1);

-- Sources.
CREATE TRIGGER sources_search_insert AFTER INSERT ON sources BEGIN
    INSERT INTO search_docs (target, key, user_id, visibility, at, embedding)
        VALUES ('source', new.entity_key, new.user_id, new.state = 'archived',
                coalesce(new.started_at, new.created_at), new.embedding);
    INSERT INTO sources_fts (rowid, summary, content, keywords)
        VALUES (last_insert_rowid(), new.summary, new.content, new.keywords);
END;
CREATE TRIGGER sources_search_text AFTER UPDATE OF summary, content, keywords ON sources
WHEN old.summary IS NOT new.summary OR old.content IS NOT new.content
  OR old.keywords IS NOT new.keywords BEGIN
    INSERT INTO sources_fts (sources_fts, rowid, summary, content, keywords)
        SELECT 'delete', doc_id, old.summary, old.content, old.keywords FROM search_docs
        WHERE target = 'source' AND key = old.entity_key;
    INSERT INTO sources_fts (rowid, summary, content, keywords)
        SELECT doc_id, new.summary, new.content, new.keywords FROM search_docs
        WHERE target = 'source' AND key = new.entity_key;
END;
CREATE TRIGGER sources_search_meta AFTER UPDATE OF embedding, state, started_at ON sources
WHEN old.embedding IS NOT new.embedding OR old.state IS NOT new.state
  OR old.started_at IS NOT new.started_at BEGIN
    UPDATE search_docs SET embedding = new.embedding, visibility = new.state = 'archived',
        at = coalesce(new.started_at, new.created_at)
    WHERE target = 'source' AND key = new.entity_key;
END;
CREATE TRIGGER sources_search_delete AFTER DELETE ON sources BEGIN
    INSERT INTO sources_fts (sources_fts, rowid, summary, content, keywords)
        SELECT 'delete', doc_id, old.summary, old.content, old.keywords FROM search_docs
        WHERE target = 'source' AND key = old.entity_key;
    DELETE FROM search_docs WHERE target = 'source' AND key = old.entity_key;
END;

-- Persons, Concepts, Entities.
CREATE TRIGGER nodes_search_insert AFTER INSERT ON nodes BEGIN
    INSERT INTO search_docs (target, key, user_id, visibility, at, embedding)
        VALUES ('node', new.entity_key, new.user_id, new.state = 'archived',
                coalesce(new.last_mentioned_at, new.created_at), new.embedding);
    INSERT INTO nodes_fts (rowid, name, description)
        VALUES (last_insert_rowid(), new.name, new.description);
END;
CREATE TRIGGER nodes_search_text AFTER UPDATE OF name, description ON nodes
WHEN old.name IS NOT new.name OR old.description IS NOT new.description BEGIN
    INSERT INTO nodes_fts (nodes_fts, rowid, name, description)
        SELECT 'delete', doc_id, old.name, old.description FROM search_docs
        WHERE target = 'node' AND key = old.entity_key;
    INSERT INTO nodes_fts (rowid, name, description)
        SELECT doc_id, new.name, new.description FROM search_docs
        WHERE target = 'node' AND key = new.entity_key;
END;
CREATE TRIGGER nodes_search_meta AFTER UPDATE OF embedding, state, last_mentioned_at ON nodes
WHEN old.embedding IS NOT new.embedding OR old.state IS NOT new.state
  OR old.last_mentioned_at IS NOT new.last_mentioned_at BEGIN
    UPDATE search_docs SET embedding = new.embedding, visibility = new.state = 'archived',
        at = coalesce(new.last_mentioned_at, new.created_at)
    WHERE target = 'node' AND key = new.entity_key;
END;
CREATE TRIGGER nodes_search_delete AFTER DELETE ON nodes BEGIN
    INSERT INTO nodes_fts (nodes_fts, rowid, name, description)
        SELECT 'delete', doc_id, old.name, old.description FROM search_docs
        WHERE target = 'node' AND key = old.entity_key;
    DELETE FROM search_docs WHERE target = 'node' AND key = old.entity_key;
END;

-- Storylines.
CREATE TRIGGER storylines_search_insert AFTER INSERT ON storylines BEGIN
    INSERT INTO search_docs (target, key, user_id, visibility, at, embedding)
        VALUES ('storyline', new.storyline_id, new.user_id, new.state = 'archived',
                coalesce(new.last_source_at, new.created_at), new.embedding);
    INSERT INTO storylines_fts (rowid, description) VALUES (last_insert_rowid(), new.description);
END;
CREATE TRIGGER storylines_search_text AFTER UPDATE OF description ON storylines
WHEN old.description IS NOT new.description BEGIN
    INSERT INTO storylines_fts (storylines_fts, rowid, description)
        SELECT 'delete', doc_id, old.description FROM search_docs
        WHERE target = 'storyline' AND key = old.storyline_id;
    INSERT INTO storylines_fts (rowid, description)
        SELECT doc_id, new.description FROM search_docs
        WHERE target = 'storyline' AND key = new.storyline_id;
END;
CREATE TRIGGER storylines_search_meta AFTER UPDATE OF embedding, state, last_source_at ON storylines
WHEN old.embedding IS NOT new.embedding OR old.state IS NOT new.state
  OR old.last_source_at IS NOT new.last_source_at BEGIN
    UPDATE search_docs SET embedding = new.embedding, visibility = new.state = 'archived',
        at = coalesce(new.last_source_at, new.created_at)
    WHERE target = 'storyline' AND key = new.storyline_id;
END;
CREATE TRIGGER storylines_search_delete AFTER DELETE ON storylines BEGIN
    INSERT INTO storylines_fts (storylines_fts, rowid, description)
        SELECT 'delete', doc_id, old.description FROM search_docs
        WHERE target = 'storyline' AND key = old.storyline_id;
    DELETE FROM search_docs WHERE target = 'storyline' AND key = old.storyline_id;
END;

-- Macros.
CREATE TRIGGER macros_search_insert AFTER INSERT ON macros BEGIN
    INSERT INTO search_docs (target, key, user_id, visibility, at, embedding)
        VALUES ('macro', new.macro_id, new.user_id, new.state = 'archived',
                coalesce(new.last_event_at, new.created_at), new.embedding);
    INSERT INTO macros_fts (rowid, description) VALUES (last_insert_rowid(), new.description);
END;
CREATE TRIGGER macros_search_text AFTER UPDATE OF description ON macros
WHEN old.description IS NOT new.description BEGIN
    INSERT INTO macros_fts (macros_fts, rowid, description)
        SELECT 'delete', doc_id, old.description FROM search_docs
        WHERE target = 'macro' AND key = old.macro_id;
    INSERT INTO macros_fts (rowid, description)
        SELECT doc_id, new.description FROM search_docs
        WHERE target = 'macro' AND key = new.macro_id;
END;
CREATE TRIGGER macros_search_meta AFTER UPDATE OF embedding, state, last_event_at ON macros
WHEN old.embedding IS NOT new.embedding OR old.state IS NOT new.state
  OR old.last_event_at IS NOT new.last_event_at BEGIN
    UPDATE search_docs SET embedding = new.embedding, visibility = new.state = 'archived',
        at = coalesce(new.last_event_at, new.created_at)
    WHERE target = 'macro' AND key = new.macro_id;
END;
CREATE TRIGGER macros_search_delete AFTER DELETE ON macros BEGIN
    INSERT INTO macros_fts (macros_fts, rowid, description)
        SELECT 'delete', doc_id, old.description FROM search_docs
        WHERE target = 'macro' AND key = old.macro_id;
    DELETE FROM search_docs WHERE target = 'macro' AND key = old.macro_id;
END;

-- Facts: a superseded fact is never searched.
CREATE TRIGGER facts_search_insert AFTER INSERT ON facts BEGIN
    INSERT INTO search_docs (target, key, user_id, visibility, at, embedding)
        VALUES ('fact', new.fact_id, new.user_id,
                CASE WHEN new.is_active = 0 THEN 2 ELSE new.state = 'archived' END,
                new.valid_from, new.embedding);
    INSERT INTO facts_fts (rowid, text, value)
        VALUES (last_insert_rowid(), new.text, coalesce(new.value, ''));
END;
CREATE TRIGGER facts_search_meta AFTER UPDATE OF embedding, state, is_active ON facts
WHEN old.embedding IS NOT new.embedding OR old.state IS NOT new.state
  OR old.is_active IS NOT new.is_active BEGIN
    UPDATE search_docs SET embedding = new.embedding,
        visibility = CASE WHEN new.is_active = 0 THEN 2 ELSE new.state = 'archived' END
    WHERE target = 'fact' AND key = new.fact_id;
END;
CREATE TRIGGER facts_search_delete AFTER DELETE ON facts BEGIN
    INSERT INTO facts_fts (facts_fts, rowid, text, value)
        SELECT 'delete', doc_id, old.text, coalesce(old.value, '') FROM search_docs
        WHERE target = 'fact' AND key = old.fact_id;
    DELETE FROM search_docs WHERE target = 'fact' AND key = old.fact_id;
END;

-- What was stored before this migration.
INSERT INTO search_docs (target, key, user_id, visibility, at, embedding)
    SELECT 'source', entity_key, user_id, state = 'archived', coalesce(started_at, created_at),
           embedding FROM sources;
INSERT INTO sources_fts (rowid, summary, content, keywords)
    SELECT d.doc_id, s.summary, s.content, s.keywords
    FROM sources s JOIN search_docs d ON d.target = 'source' AND d.key = s.entity_key;
INSERT INTO search_docs (target, key, user_id, visibility, at, embedding)
    SELECT 'node', entity_key, user_id, state = 'archived',
           coalesce(last_mentioned_at, created_at), embedding FROM nodes;
INSERT INTO nodes_fts (rowid, name, description)
    SELECT d.doc_id, n.name, n.description
    FROM nodes n JOIN search_docs d ON d.target = 'node' AND d.key = n.entity_key;
INSERT INTO search_docs (target, key, user_id, visibility, at, embedding)
    SELECT 'storyline', storyline_id, user_id, state = 'archived',
           coalesce(last_source_at, created_at), embedding FROM storylines;
INSERT INTO storylines_fts (rowid, description)
    SELECT d.doc_id, s.description
    FROM storylines s JOIN search_docs d ON d.target = 'storyline' AND d.key = s.storyline_id;
INSERT INTO search_docs (target, key, user_id, visibility, at, embedding)
    SELECT 'macro', macro_id, user_id, state = 'archived', coalesce(last_event_at, created_at),
           embedding FROM macros;
INSERT INTO macros_fts (rowid, description)
    SELECT d.doc_id, m.description
    FROM macros m JOIN search_docs d ON d.target = 'macro' AND d.key = m.macro_id;
