-- Content passages: a Source is searched by the pieces of its cleaned content as well
-- as by its summary (a short summary cannot stand for a long conversation). The text
-- of each passage is kept for results to show as evidence; their vectors are packed
-- into the Source's `search_docs` row (one little-endian f32 vector per passage, in
-- passage order), so the vector scan still reads one row per Source. Both go with
-- their Source: the rows by cascade, the vectors with the `search_docs` row.

CREATE TABLE source_passages (
    source_key TEXT NOT NULL REFERENCES sources (entity_key) ON DELETE CASCADE,
    ordinal    INTEGER NOT NULL,
    text       TEXT NOT NULL,
    PRIMARY KEY (source_key, ordinal)
) WITHOUT ROWID;

ALTER TABLE search_docs ADD COLUMN passages BLOB;
