-- The lifecycle event log (seed 002): every state change of every memory.
CREATE TABLE lifecycle_events (
    event_id       TEXT PRIMARY KEY,
    memory_kind    TEXT NOT NULL,
    memory_key     TEXT NOT NULL,
    user_id        TEXT NOT NULL,
    previous_state TEXT NOT NULL,
    new_state      TEXT NOT NULL,
    reason         TEXT NOT NULL,
    actor          TEXT NOT NULL,
    at             INTEGER NOT NULL
);
CREATE INDEX lifecycle_events_by_memory ON lifecycle_events (memory_key, at);
CREATE INDEX lifecycle_events_by_user ON lifecycle_events (user_id, at);

-- Provenance of consolidated knowledge: (semantic node)-[:derived_from]->(Source).
CREATE TABLE derived_from (
    entity_key TEXT NOT NULL REFERENCES nodes (entity_key) ON DELETE CASCADE,
    source_key TEXT NOT NULL REFERENCES sources (entity_key) ON DELETE CASCADE,
    user_id    TEXT NOT NULL,
    created_at INTEGER NOT NULL,
    PRIMARY KEY (entity_key, source_key)
);
CREATE INDEX derived_from_by_source ON derived_from (source_key);

CREATE INDEX storyline_sources_by_source ON storyline_sources (source_key);
CREATE INDEX mentions_by_node_source ON mentions (entity_key, source_key);
CREATE INDEX sources_by_state ON sources (state, salience);
CREATE INDEX relationships_dirty ON relationships (is_dirty) WHERE is_dirty = 1;
CREATE INDEX storylines_dirty ON storylines (is_dirty) WHERE is_dirty = 1;
CREATE INDEX macros_dirty ON macros (is_dirty) WHERE is_dirty = 1;
