//! The live session buffer: a user's chat session, turn by turn, in the directory
//! database (`cosmo_sessions`, `cosmo_session_turns`, `cosmo_session_chunks`; migration
//! `0005_session_buffer.sql`). The latest turns are the session's working memory; older
//! ones are compressed into `conversation` Sources (posted by `cosmo_pipeline::sessions`).
//!
//! Exactly once, across two databases, with an outbox: the transaction that appends
//! turns numbers them (one after another per session, whatever the number of clients)
//! and, when the buffer then holds more than `sessions.flush_after_turns`, claims all
//! but the latest `sessions.keep_turns` into a *chunk* row that names the Source they
//! become (a key fixed by user, session and first turn). Only after the commit is that
//! Source stored in the graph (`cosmo_pipeline::sessions::post_chunk`), and then the chunk is marked
//! posted and its turns deleted. A chunk claimed but not posted (a crash in between, the
//! graph out of reach) is posted again later — by the next append to or end of its
//! session, when an API process starts, and by the reconciler — and storing the same
//! Source again is a no-op. So every turn is in exactly one Source or in the buffer.

use chrono::{DateTime, Utc};
use cosmo_core::query_file;
use serde::Serialize;

use crate::db::{Db, on_db};
use crate::domain::input::session::NewTurn;

mod keys;

pub use self::keys::{external_id, source_key};

/// The session store: SQL on the directory database.
#[derive(Debug, Clone)]
pub struct Sessions {
    db: Db,
}

/// One stored turn.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, sqlx::FromRow, utoipa::ToSchema)]
pub struct Turn {
    /// Its number in the session: 1 for the first turn appended, then one more each.
    pub seq: i64,
    pub speaker: String,
    pub text: String,
    /// When it was said (as the client gave it, else when it was received).
    #[serde(rename = "timestamp")]
    pub spoken_at: DateTime<Utc>,
}

/// Turns `first_seq..=last_seq` of a session, claimed for the Source `source_key`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, sqlx::FromRow, utoipa::ToSchema)]
pub struct Chunk {
    #[serde(skip)]
    pub graph_user_id: String,
    #[serde(skip)]
    pub session_id: String,
    pub first_seq: i64,
    pub last_seq: i64,
    /// The entity key of the `conversation` Source these turns are (or will be).
    pub source_key: String,
    pub claimed_at: DateTime<Utc>,
    /// When the Source was stored; `null` while it is still to be posted.
    pub posted_at: Option<DateTime<Utc>>,
}

/// What a session's row says.
#[derive(Debug, Clone, PartialEq, Eq, sqlx::FromRow)]
pub struct SessionRow {
    pub graph_user_id: String,
    pub session_id: String,
    pub last_seq: i64,
    pub flushed_seq: i64,
    pub created_at: DateTime<Utc>,
    pub updated_at: DateTime<Utc>,
    pub ended_at: Option<DateTime<Utc>>,
}

/// What an append did.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Appended {
    /// The numbers the appended turns got.
    pub first_seq: i64,
    pub last_seq: i64,
    /// Turns in the buffer after this append.
    pub buffered: i64,
    /// The chunk this append claimed, if the buffer overflowed.
    pub claimed: Option<Chunk>,
}

/// Why an append or an end did not happen.
#[derive(Debug, thiserror::Error)]
pub enum SessionError {
    #[error("session {0} has ended; start a new session to add turns")]
    Ended(String),
    #[error("session {0} not found")]
    NotFound(String),
    #[error(transparent)]
    Db(#[from] sqlx::Error),
}

/// The thresholds of `[sessions]`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Limits {
    pub keep_turns: i64,
    pub flush_after_turns: i64,
}

impl From<&crate::config::SessionsConfig> for Limits {
    fn from(c: &crate::config::SessionsConfig) -> Self {
        Self {
            keep_turns: c.keep_turns.into(),
            flush_after_turns: c.flush_after_turns.into(),
        }
    }
}

/// A write transaction that takes the database's write lock (SQLite, once this
/// process's earlier writers of the file are done) up front: the session row is read
/// and written in it, and a deferred SQLite transaction that reads first can fail with
/// SQLITE_BUSY when another writer came in between. On PostgreSQL
/// the statements lock the session row themselves (`INSERT … ON CONFLICT DO UPDATE`,
/// `UPDATE`), so concurrent appends to one session wait for each other.
trait BeginWrite {
    type Tx;
    async fn begin_write(&self) -> sqlx::Result<Self::Tx>;
}

impl BeginWrite for sqlx::SqlitePool {
    type Tx = cosmo_graph_sqlite::WriteTx;
    async fn begin_write(&self) -> sqlx::Result<Self::Tx> {
        cosmo_graph_sqlite::begin_write(self).await
    }
}

impl BeginWrite for sqlx::PgPool {
    type Tx = sqlx::Transaction<'static, sqlx::Postgres>;
    async fn begin_write(&self) -> sqlx::Result<Self::Tx> {
        self.begin().await
    }
}

const CLAIM: &str = query_file!("sessions/claim_chunk.sql");
const SET_FLUSHED: &str = query_file!("sessions/set_flushed.sql");
const CHUNK_COLUMNS: &str =
    "graph_user_id, session_id, first_seq, last_seq, source_key, claimed_at, posted_at";

impl Sessions {
    pub fn new(db: Db) -> Self {
        Self { db }
    }

    /// Appends `turns` to the session (created by its first append), numbering them
    /// after the session's last turn, and claims the oldest buffered turns into a chunk
    /// when the buffer then holds more than `limits.flush_after_turns`: all in one
    /// transaction. `at` is when they were received (the time of a turn without one).
    pub async fn append(
        &self,
        graph_user_id: &str,
        session_id: &str,
        turns: &[NewTurn],
        limits: Limits,
        at: DateTime<Utc>,
    ) -> Result<Appended, SessionError> {
        const BUMP: &str = query_file!("sessions/bump_session.sql");
        const TURN: &str = query_file!("sessions/insert_turn.sql");
        let n = turns.len() as i64;
        on_db!(&self.db, pool => {
            let mut tx = pool.begin_write().await?;
            let (last_seq, flushed_seq, ended_at): (i64, i64, Option<DateTime<Utc>>) =
                sqlx::query_as(BUMP)
                    .bind(graph_user_id).bind(session_id).bind(n).bind(at)
                    .fetch_one(&mut *tx)
                    .await?;
            if ended_at.is_some() {
                // Dropping the transaction rolls the bump back.
                return Err(SessionError::Ended(session_id.to_owned()));
            }
            let first_seq = last_seq - n + 1;
            for (seq, turn) in (first_seq..).zip(turns) {
                let spoken_at = crate::clock::truncate_to_micros(turn.at.unwrap_or(at));
                sqlx::query(TURN)
                    .bind(graph_user_id).bind(session_id).bind(seq)
                    .bind(&turn.speaker).bind(&turn.text).bind(spoken_at)
                    .execute(&mut *tx)
                    .await?;
            }
            let mut claimed = None;
            let mut flushed = flushed_seq;
            if last_seq - flushed_seq > limits.flush_after_turns {
                let chunk = self.chunk(graph_user_id, session_id, flushed_seq + 1,
                    last_seq - limits.keep_turns, at);
                sqlx::query(CLAIM)
                    .bind(graph_user_id).bind(session_id).bind(chunk.first_seq)
                    .bind(chunk.last_seq).bind(&chunk.source_key).bind(at)
                    .execute(&mut *tx)
                    .await?;
                sqlx::query(SET_FLUSHED)
                    .bind(graph_user_id).bind(session_id).bind(chunk.last_seq)
                    .execute(&mut *tx)
                    .await?;
                flushed = chunk.last_seq;
                claimed = Some(chunk);
            }
            tx.commit().await?;
            Ok(Appended { first_seq, last_seq, buffered: last_seq - flushed, claimed })
        })
    }

    /// Ends the session: the turns still in the buffer are claimed into one last chunk,
    /// and no turn may be appended any more. Ending an ended session changes nothing.
    /// Returns the chunk claimed, if the buffer held turns.
    pub async fn end(
        &self,
        graph_user_id: &str,
        session_id: &str,
        at: DateTime<Utc>,
    ) -> Result<Option<Chunk>, SessionError> {
        const END: &str = query_file!("sessions/end_session.sql");
        on_db!(&self.db, pool => {
            let mut tx = pool.begin_write().await?;
            let row: Option<(i64, i64)> = sqlx::query_as(END)
                .bind(graph_user_id).bind(session_id).bind(at)
                .fetch_optional(&mut *tx)
                .await?;
            let Some((last_seq, flushed_seq)) = row else {
                return Err(SessionError::NotFound(session_id.to_owned()));
            };
            let mut claimed = None;
            if last_seq > flushed_seq {
                let chunk = self.chunk(graph_user_id, session_id, flushed_seq + 1, last_seq, at);
                sqlx::query(CLAIM)
                    .bind(graph_user_id).bind(session_id).bind(chunk.first_seq)
                    .bind(chunk.last_seq).bind(&chunk.source_key).bind(at)
                    .execute(&mut *tx)
                    .await?;
                sqlx::query(SET_FLUSHED)
                    .bind(graph_user_id).bind(session_id).bind(last_seq)
                    .execute(&mut *tx)
                    .await?;
                claimed = Some(chunk);
            }
            tx.commit().await?;
            Ok(claimed)
        })
    }

    fn chunk(
        &self,
        graph_user_id: &str,
        session_id: &str,
        first_seq: i64,
        last_seq: i64,
        at: DateTime<Utc>,
    ) -> Chunk {
        Chunk {
            graph_user_id: graph_user_id.to_owned(),
            session_id: session_id.to_owned(),
            first_seq,
            last_seq,
            source_key: source_key(graph_user_id, session_id, first_seq),
            claimed_at: at,
            posted_at: None,
        }
    }

    /// The session's row, if it exists.
    pub async fn session(
        &self,
        graph_user_id: &str,
        session_id: &str,
    ) -> sqlx::Result<Option<SessionRow>> {
        const SQL: &str = query_file!("sessions/session.sql");
        on_db!(&self.db, pool => sqlx::query_as(SQL)
            .bind(graph_user_id).bind(session_id).fetch_optional(pool).await)
    }

    /// The latest `limit` turns of the buffer (not yet claimed by a chunk), oldest first.
    pub async fn buffer(
        &self,
        graph_user_id: &str,
        session_id: &str,
        limit: i64,
    ) -> sqlx::Result<Vec<Turn>> {
        const SQL: &str = query_file!("sessions/buffer.sql");
        let mut turns: Vec<Turn> = on_db!(&self.db, pool => sqlx::query_as(SQL)
            .bind(graph_user_id).bind(session_id).bind(limit).fetch_all(pool).await)?;
        turns.reverse();
        Ok(turns)
    }

    /// Turns `first_seq..=last_seq` of a session that are still stored, in order.
    pub async fn turns(
        &self,
        graph_user_id: &str,
        session_id: &str,
        first_seq: i64,
        last_seq: i64,
    ) -> sqlx::Result<Vec<Turn>> {
        const SQL: &str = query_file!("sessions/turns.sql");
        on_db!(&self.db, pool => sqlx::query_as(SQL)
            .bind(graph_user_id).bind(session_id).bind(first_seq).bind(last_seq)
            .fetch_all(pool).await)
    }

    /// Every chunk of a session, oldest first.
    pub async fn chunks(&self, graph_user_id: &str, session_id: &str) -> sqlx::Result<Vec<Chunk>> {
        let sql = format!(
            "SELECT {CHUNK_COLUMNS} FROM cosmo_session_chunks
             WHERE graph_user_id = $1 AND session_id = $2 ORDER BY first_seq"
        );
        on_db!(&self.db, pool => sqlx::query_as(sqlx::AssertSqlSafe(sql))
            .bind(graph_user_id).bind(session_id).fetch_all(pool).await)
    }

    /// The chunks not posted yet that were claimed before `before` (any session), oldest
    /// first, at most `limit`.
    pub async fn unposted(&self, before: DateTime<Utc>, limit: i64) -> sqlx::Result<Vec<Chunk>> {
        let sql = format!(
            "SELECT {CHUNK_COLUMNS} FROM cosmo_session_chunks
             WHERE posted_at IS NULL AND claimed_at < $1
             ORDER BY claimed_at, graph_user_id, session_id, first_seq LIMIT $2"
        );
        on_db!(&self.db, pool => sqlx::query_as(sqlx::AssertSqlSafe(sql))
            .bind(before).bind(limit).fetch_all(pool).await)
    }

    /// Records that `chunk`'s Source is stored, and deletes its turns (the Source holds
    /// them now), in one transaction. Whether this call marked it (false: another did).
    pub async fn mark_posted(&self, chunk: &Chunk, at: DateTime<Utc>) -> sqlx::Result<bool> {
        const MARK: &str = query_file!("sessions/mark_posted.sql");
        const DROP_TURNS: &str = query_file!("sessions/delete_chunk_turns.sql");
        let (user, session) = (&chunk.graph_user_id, &chunk.session_id);
        on_db!(&self.db, pool => {
            let mut tx = pool.begin_write().await?;
            let marked = sqlx::query(MARK)
                .bind(user).bind(session).bind(chunk.first_seq).bind(at)
                .execute(&mut *tx)
                .await?
                .rows_affected() == 1;
            sqlx::query(DROP_TURNS)
                .bind(user).bind(session).bind(chunk.first_seq).bind(chunk.last_seq)
                .execute(&mut *tx)
                .await?;
            tx.commit().await?;
            Ok(marked)
        })
    }

    /// Whether `chunk` is marked posted.
    pub async fn is_posted(&self, chunk: &Chunk) -> sqlx::Result<bool> {
        const SQL: &str = query_file!("sessions/chunk_posted_at.sql");
        let posted: Option<(Option<DateTime<Utc>>,)> = on_db!(&self.db, pool => sqlx::query_as(SQL)
            .bind(&chunk.graph_user_id).bind(&chunk.session_id).bind(chunk.first_seq)
            .fetch_optional(pool).await)?;
        Ok(posted.is_some_and(|(p,)| p.is_some()))
    }

    /// Erasure: every session of the user, with their turns and chunks. Returns how
    /// many turns were deleted.
    pub async fn delete_user(&self, graph_user_id: &str) -> sqlx::Result<u64> {
        on_db!(&self.db, pool => {
            let mut tx = pool.begin_write().await?;
            let turns = sqlx::query(query_file!("sessions/delete_user_turns.sql"))
                .bind(graph_user_id).execute(&mut *tx).await?.rows_affected();
            sqlx::query(query_file!("sessions/delete_user_chunks.sql"))
                .bind(graph_user_id).execute(&mut *tx).await?;
            sqlx::query(query_file!("sessions/delete_user_sessions.sql"))
                .bind(graph_user_id).execute(&mut *tx).await?;
            tx.commit().await?;
            Ok(turns)
        })
    }
}
