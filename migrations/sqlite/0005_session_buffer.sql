-- The live session buffer (seed 003): the turns of a user's chat session, in the order
-- they were appended, until they are compressed into `conversation` Sources.
-- `last_seq` is the number of the last turn appended (turns are numbered from 1 within
-- their session, in the append transaction); turns up to `flushed_seq` are claimed by a
-- chunk, the others are the buffer. Times are TEXT on SQLite and TIMESTAMPTZ on
-- PostgreSQL, as in the other directory tables.
CREATE TABLE cosmo_sessions (
    graph_user_id TEXT NOT NULL,
    session_id    TEXT NOT NULL,
    last_seq      INTEGER NOT NULL,
    flushed_seq   INTEGER NOT NULL DEFAULT 0,
    created_at    TEXT NOT NULL,
    updated_at    TEXT NOT NULL,
    ended_at      TEXT,
    PRIMARY KEY (graph_user_id, session_id)
);

CREATE TABLE cosmo_session_turns (
    graph_user_id TEXT NOT NULL,
    session_id    TEXT NOT NULL,
    seq           INTEGER NOT NULL,
    speaker       TEXT NOT NULL,
    text          TEXT NOT NULL,
    spoken_at     TEXT NOT NULL,
    PRIMARY KEY (graph_user_id, session_id, seq),
    FOREIGN KEY (graph_user_id, session_id)
        REFERENCES cosmo_sessions (graph_user_id, session_id) ON DELETE CASCADE
);

-- The outbox: turns first_seq..=last_seq, claimed in the transaction that appended the
-- turn that made the buffer overflow (or that ended the session), become the Source
-- `source_key`. `posted_at` is set (and the chunk's turns deleted) once that Source is
-- stored; a chunk without it is posted again, which the Source's key makes harmless.
CREATE TABLE cosmo_session_chunks (
    graph_user_id TEXT NOT NULL,
    session_id    TEXT NOT NULL,
    first_seq     INTEGER NOT NULL,
    last_seq      INTEGER NOT NULL,
    source_key    TEXT NOT NULL,
    claimed_at    TEXT NOT NULL,
    posted_at     TEXT,
    PRIMARY KEY (graph_user_id, session_id, first_seq),
    FOREIGN KEY (graph_user_id, session_id)
        REFERENCES cosmo_sessions (graph_user_id, session_id) ON DELETE CASCADE
);
CREATE INDEX cosmo_session_chunks_unposted ON cosmo_session_chunks (claimed_at)
    WHERE posted_at IS NULL;
