-- The embedded graph store (SQLite). Times are INTEGER microseconds since the Unix
-- epoch (UTC); lists are JSON arrays in TEXT; embeddings are little-endian f32 BLOBs.
-- Every identity key of SPEC §2 is a UNIQUE constraint here, as on Neo4j.

CREATE TABLE sources (
    entity_key              TEXT PRIMARY KEY,
    user_id                 TEXT NOT NULL,
    team_id                 TEXT,
    participants            TEXT NOT NULL DEFAULT '[]',
    source_type             TEXT NOT NULL,
    raw_content             TEXT NOT NULL,
    provenance              TEXT,
    context_type            TEXT,
    started_at              INTEGER,
    ended_at                INTEGER,
    sensitivity             TEXT NOT NULL,
    idempotency_key         TEXT NOT NULL,
    external_id             TEXT,
    content_hash            TEXT NOT NULL,
    content                 TEXT NOT NULL DEFAULT '',
    summary                 TEXT NOT NULL DEFAULT '',
    keywords                TEXT NOT NULL DEFAULT '[]',
    tags                    TEXT NOT NULL DEFAULT '[]',
    embedding               BLOB,
    processing_status       TEXT NOT NULL,
    processing_started_at   INTEGER,
    processing_completed_at INTEGER,
    extraction_started_at   INTEGER,
    extraction_completed_at INTEGER,
    processing_error        TEXT,
    salience                REAL NOT NULL,
    state                   TEXT NOT NULL,
    confidence              REAL NOT NULL,
    access_count            INTEGER NOT NULL,
    recall_frequency        INTEGER NOT NULL,
    last_recall_interval    REAL NOT NULL,
    decay_gradient          REAL NOT NULL,
    last_accessed_at        INTEGER,
    last_decayed_at         INTEGER,
    ttl_policy              TEXT NOT NULL,
    pinned                  INTEGER NOT NULL DEFAULT 0,
    created_at              INTEGER NOT NULL,
    updated_at              INTEGER NOT NULL,
    UNIQUE (user_id, idempotency_key)
);
CREATE INDEX sources_by_status ON sources (processing_status, updated_at);
CREATE INDEX sources_by_user ON sources (user_id, entity_key);

-- Person / Concept / Entity. identity_name is the canonical name (Person) or the
-- normalised name; entity_type is '' except for Entities.
CREATE TABLE nodes (
    entity_key           TEXT PRIMARY KEY,
    user_id              TEXT NOT NULL,
    kind                 TEXT NOT NULL CHECK (kind IN ('person', 'concept', 'entity')),
    identity_name        TEXT NOT NULL,
    entity_type          TEXT NOT NULL DEFAULT '',
    name                 TEXT NOT NULL,
    description          TEXT NOT NULL DEFAULT '',
    embedding            BLOB,
    is_owner             INTEGER NOT NULL DEFAULT 0,
    created_by           TEXT NOT NULL,
    source_count         INTEGER NOT NULL DEFAULT 0,
    first_mentioned_at   INTEGER,
    last_mentioned_at    INTEGER,
    distinct_source_days INTEGER NOT NULL DEFAULT 0,
    has_meso             INTEGER NOT NULL DEFAULT 0,
    has_macro            INTEGER NOT NULL DEFAULT 0,
    is_dirty             INTEGER NOT NULL DEFAULT 0,
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
    updated_at           INTEGER NOT NULL,
    UNIQUE (user_id, kind, identity_name, entity_type)
);
CREATE UNIQUE INDEX nodes_one_owner ON nodes (user_id) WHERE is_owner = 1;
CREATE INDEX nodes_by_user ON nodes (user_id, entity_key);
CREATE INDEX nodes_by_state ON nodes (state);
CREATE INDEX nodes_dirty ON nodes (is_dirty) WHERE is_dirty = 1;

-- The distinct event days a node was mentioned on ('YYYY-MM-DD').
CREATE TABLE node_days (
    entity_key TEXT NOT NULL REFERENCES nodes (entity_key) ON DELETE CASCADE,
    day        TEXT NOT NULL,
    PRIMARY KEY (entity_key, day)
);

CREATE TABLE mentions (
    source_key TEXT NOT NULL REFERENCES sources (entity_key) ON DELETE CASCADE,
    entity_key TEXT NOT NULL REFERENCES nodes (entity_key) ON DELETE CASCADE,
    user_id    TEXT NOT NULL,
    created_at INTEGER NOT NULL,
    PRIMARY KEY (source_key, entity_key)
);
CREATE INDEX mentions_by_node ON mentions (entity_key);
CREATE INDEX mentions_by_user ON mentions (user_id);

CREATE TABLE relationships (
    rel_key              TEXT PRIMARY KEY,
    user_id              TEXT NOT NULL,
    from_key             TEXT NOT NULL REFERENCES nodes (entity_key) ON DELETE CASCADE,
    to_key               TEXT NOT NULL REFERENCES nodes (entity_key) ON DELETE CASCADE,
    relationship_type    TEXT NOT NULL,
    description          TEXT NOT NULL DEFAULT '',
    attitude             TEXT NOT NULL,
    proximity            REAL NOT NULL,
    strength             REAL NOT NULL,
    notes_embedding      BLOB,
    is_dirty             INTEGER NOT NULL DEFAULT 0,
    created_by           TEXT NOT NULL,
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
    updated_at           INTEGER NOT NULL,
    UNIQUE (from_key, to_key, relationship_type)
);
CREATE INDEX relationships_by_user ON relationships (user_id, rel_key);
CREATE INDEX relationships_by_to ON relationships (to_key);

-- Notes on nodes (owner_kind 'node') and relationships (owner_kind 'relationship').
CREATE TABLE notes (
    owner_key  TEXT NOT NULL,
    note_id    TEXT NOT NULL,
    owner_kind TEXT NOT NULL CHECK (owner_kind IN ('node', 'relationship')),
    user_id    TEXT NOT NULL,
    text       TEXT NOT NULL,
    added_by   TEXT NOT NULL,
    source_id  TEXT,
    date_added INTEGER NOT NULL,
    lifetime   TEXT NOT NULL,
    expires_at INTEGER,
    PRIMARY KEY (owner_key, note_id)
);
CREATE INDEX notes_by_source ON notes (source_id);
CREATE INDEX notes_by_expiry ON notes (expires_at) WHERE expires_at IS NOT NULL;

CREATE TABLE extractions (
    source_key   TEXT NOT NULL REFERENCES sources (entity_key) ON DELETE CASCADE,
    user_id      TEXT NOT NULL,
    status       TEXT NOT NULL,
    requested_at INTEGER NOT NULL,
    started_at   INTEGER,
    completed_at INTEGER,
    error        TEXT,
    updated_at   INTEGER NOT NULL,
    PRIMARY KEY (source_key, user_id)
);
CREATE INDEX extractions_by_status ON extractions (status, updated_at);

CREATE TABLE storylines (
    storyline_id         TEXT PRIMARY KEY,
    user_id              TEXT NOT NULL,
    anchor_key           TEXT NOT NULL REFERENCES nodes (entity_key) ON DELETE CASCADE,
    description          TEXT NOT NULL DEFAULT '',
    embedding            BLOB,
    source_count         INTEGER NOT NULL DEFAULT 0,
    first_source_at      INTEGER,
    last_source_at       INTEGER,
    is_dirty             INTEGER NOT NULL DEFAULT 0,
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
CREATE INDEX storylines_by_anchor ON storylines (anchor_key);
CREATE INDEX storylines_by_user ON storylines (user_id);

CREATE TABLE storyline_sources (
    storyline_id TEXT NOT NULL REFERENCES storylines (storyline_id) ON DELETE CASCADE,
    source_key   TEXT NOT NULL REFERENCES sources (entity_key) ON DELETE CASCADE,
    PRIMARY KEY (storyline_id, source_key)
);

CREATE TABLE macros (
    macro_id             TEXT PRIMARY KEY,
    user_id              TEXT NOT NULL,
    anchor_key           TEXT NOT NULL REFERENCES nodes (entity_key) ON DELETE CASCADE,
    description          TEXT NOT NULL DEFAULT '',
    embedding            BLOB,
    storyline_count      INTEGER NOT NULL DEFAULT 0,
    total_source_count   INTEGER NOT NULL DEFAULT 0,
    first_event_at       INTEGER,
    last_event_at        INTEGER,
    is_dirty             INTEGER NOT NULL DEFAULT 0,
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
CREATE INDEX macros_by_anchor ON macros (anchor_key);

CREATE TABLE macro_storylines (
    macro_id     TEXT NOT NULL REFERENCES macros (macro_id) ON DELETE CASCADE,
    storyline_id TEXT NOT NULL REFERENCES storylines (storyline_id) ON DELETE CASCADE,
    PRIMARY KEY (macro_id, storyline_id)
);
