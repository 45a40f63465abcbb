-- Insight provenance, one row per (node, Source, insight note). A Source can go into
-- more than one insight on the same node (consolidated, recalled, faded, consolidated
-- again); with one row per (node, Source) the later insight's link was dropped, and
-- erasing the Source left that insight — and the text it drew from the Source — behind.

CREATE TABLE derived_from_by_note (
    entity_key TEXT NOT NULL REFERENCES nodes (entity_key) ON DELETE CASCADE,
    source_key TEXT NOT NULL REFERENCES sources (entity_key) ON DELETE CASCADE,
    user_id    TEXT NOT NULL,
    created_at INTEGER NOT NULL,
    note_id    TEXT
);
INSERT INTO derived_from_by_note (entity_key, source_key, user_id, created_at, note_id)
    SELECT entity_key, source_key, user_id, created_at, note_id FROM derived_from;
DROP TABLE derived_from;
ALTER TABLE derived_from_by_note RENAME TO derived_from;
CREATE UNIQUE INDEX derived_from_one_link ON derived_from (entity_key, source_key, coalesce(note_id, ''));
CREATE INDEX derived_from_by_source ON derived_from (source_key);
