-- Typed links between a user's Sources: `temporal` (a Source to the next of its
-- thread, written when the Source is processed) and `causal` (cause to effect,
-- inferred nightly). A Source's thread is a key computed from the Source
-- (`domain::links::thread_key`); `causal_pending` marks a Source whose causes are to
-- be looked for (set when it joins its thread or a Source arrives just before it).

ALTER TABLE sources ADD COLUMN thread_key TEXT;
ALTER TABLE sources ADD COLUMN causal_pending INTEGER NOT NULL DEFAULT 0;

CREATE INDEX sources_by_thread ON sources (thread_key) WHERE thread_key IS NOT NULL;
CREATE INDEX sources_causal_pending ON sources (entity_key) WHERE causal_pending = 1;

CREATE TABLE source_links (
    kind        TEXT NOT NULL CHECK (kind IN ('temporal', 'causal')),
    from_key    TEXT NOT NULL REFERENCES sources (entity_key) ON DELETE CASCADE,
    to_key      TEXT NOT NULL REFERENCES sources (entity_key) ON DELETE CASCADE,
    user_id     TEXT NOT NULL,
    confidence  REAL NOT NULL,
    inferred_by TEXT,
    evidence    TEXT,
    created_at  INTEGER NOT NULL,
    PRIMARY KEY (kind, from_key, to_key)
);
CREATE INDEX source_links_to ON source_links (to_key, kind);
CREATE INDEX source_links_by_user ON source_links (user_id, kind);
