//! The embedded graph store: the whole graph in one SQLite file (WAL mode), shared by
//! every process on the machine. Writes that belong together run in one `BEGIN
//! IMMEDIATE` transaction, so a crash leaves either all of them or none.
//!
//! Every port of `cosmo_core::graph::ports` is implemented in the file of its name
//! (`ports/sources.rs` → `sources.rs`), as in `cosmo-graph-neo4j`.

use std::path::Path;
use std::str::FromStr;
use std::time::Duration;

use anyhow::Context;
use chrono::{DateTime, Utc};
use cosmo_core::domain::{Lifecycle, MemoryState, TtlPolicy};
use sqlx::sqlite::{
    SqliteConnectOptions, SqliteJournalMode, SqlitePoolOptions, SqliteRow, SqliteSynchronous,
};
use sqlx::{Row, SqlitePool};

mod bulk;
mod consolidation;
mod decay;
mod deletions;
mod episodic;
mod erase_user;
mod erasure;
mod extraction;
mod extraction_records;
mod fact_reads;
mod facts;
mod hierarchy;
mod lifecycle;
mod links;
mod note_search;
mod schema;
mod search;
mod semantic;
mod sources;
mod stats;
mod storylines;
mod views;
mod write_turn;

pub use write_turn::{WriteTx, begin_write};

/// The SQLite graph store.
#[derive(Debug, Clone)]
pub struct SqliteGraph {
    pool: SqlitePool,
    /// The vectors vector search reads, in memory (shared by the clones).
    vectors: std::sync::Arc<search::VectorIndex>,
    /// The text full-text search reads, in memory (shared by the clones).
    texts: std::sync::Arc<search::TextIndex>,
}

/// What the vector index may hold unless told otherwise: 512 MiB, the 8-bit vectors of
/// about 1.3 million passages or memories (384-d).
pub const DEFAULT_VECTOR_BUDGET: usize = 512 << 20;

/// What the full-text index may hold unless told otherwise: 512 MiB, about 40 million
/// word postings (10⁵ long chats of a user take about 100 MiB).
pub const DEFAULT_TEXT_BUDGET: usize = 512 << 20;

impl SqliteGraph {
    /// Opens (creating if needed) the database file at `path`.
    pub async fn open(path: &Path) -> anyhow::Result<Self> {
        let pool = open_pool(path, 8).await?;
        Ok(Self::with_pool(pool))
    }

    /// Uses an existing pool (the embedded default shares one file with the queue).
    pub fn with_pool(pool: SqlitePool) -> Self {
        Self {
            pool,
            vectors: std::sync::Arc::new(search::VectorIndex::new(DEFAULT_VECTOR_BUDGET)),
            texts: std::sync::Arc::new(search::TextIndex::new(DEFAULT_TEXT_BUDGET)),
        }
    }

    /// The same store with an in-memory vector index of at most `bytes` (0: none, every
    /// vector search streams the stored vectors).
    pub fn with_vector_budget(mut self, bytes: usize) -> Self {
        self.vectors = std::sync::Arc::new(search::VectorIndex::new(bytes));
        self
    }

    /// The same store with an in-memory full-text index of at most `bytes` (0: none,
    /// every full-text search is FTS5's).
    pub fn with_text_budget(mut self, bytes: usize) -> Self {
        self.texts = std::sync::Arc::new(search::TextIndex::new(bytes));
        self
    }

    /// The memory this store's search indexes hold now, in bytes: (vectors, text).
    pub fn search_index_bytes(&self) -> (usize, usize) {
        (self.vectors.bytes(), self.texts.bytes())
    }

    /// How many times this store's full-text index loaded a user's text whole.
    pub fn text_index_loads(&self) -> u64 {
        self.texts.loads()
    }

    /// How many times this store's vector index loaded a user's vectors whole (the
    /// first search for them, and each time it could not catch up from the log).
    pub fn vector_index_loads(&self) -> u64 {
        self.vectors.loads()
    }

    pub fn pool(&self) -> &SqlitePool {
        &self.pool
    }

    async fn begin(&self) -> sqlx::Result<WriteTx> {
        begin_write(&self.pool).await
    }
}

/// How long a write waits for the lock another writer holds (SQLite's busy timeout)
/// unless the task says otherwise ([`with_lock_wait`]): generous, for jobs that share
/// the file with other processes' long batches.
pub const LOCK_WAIT: Duration = Duration::from_secs(30);

tokio::task_local! {
    static TASK_LOCK_WAIT: Duration;
}

/// Runs `work` with its SQLite writes waiting at most `wait` for another writer's lock
/// before failing with "database is locked" (which the API answers with 503). Set on
/// each connection as the task acquires it, so work of other tasks keeps [`LOCK_WAIT`].
pub async fn with_lock_wait<F: std::future::Future>(wait: Duration, work: F) -> F::Output {
    TASK_LOCK_WAIT.scope(wait, work).await
}

/// How long this task's SQLite writes wait for the lock (and for this process's turn).
fn lock_wait() -> Duration {
    TASK_LOCK_WAIT.try_with(|w| *w).unwrap_or(LOCK_WAIT)
}

/// Connection settings for every SQLite file Cosmo opens: WAL so readers never block
/// the writer, `synchronous = NORMAL` (durable across process crashes, and across power
/// loss up to the last checkpoint), a generous busy timeout for multi-process use,
/// `secure_delete` so erased content is overwritten, not left in free pages, and reads
/// through a memory map of up to 256 MiB.
pub fn connect_options(path: &Path) -> SqliteConnectOptions {
    SqliteConnectOptions::new()
        .filename(path)
        .create_if_missing(true)
        .journal_mode(SqliteJournalMode::Wal)
        .synchronous(SqliteSynchronous::Normal)
        .busy_timeout(LOCK_WAIT)
        .foreign_keys(true)
        .pragma("temp_store", "memory")
        .pragma("secure_delete", "ON")
        // Reads of the search index (every vector of a user per query) come straight
        // from the page cache instead of a read call per page.
        .pragma("mmap_size", "268435456")
}

pub async fn open_pool(path: &Path, max_connections: u32) -> anyhow::Result<SqlitePool> {
    if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty()) {
        std::fs::create_dir_all(dir).with_context(|| format!("creating {}", dir.display()))?;
    }
    SqlitePoolOptions::new()
        .max_connections(max_connections)
        // Another connection's DDL (a migration run by a second process) expires this
        // connection's schema. The first write to a table with FTS5 triggers that then
        // re-prepares fails with "no such table" (seen with SQLite 3.51); reading the
        // schema table first reloads the schema before any real statement runs. And the
        // busy timeout is the acquiring task's (see `with_lock_wait`).
        .after_connect(|conn, _| {
            Box::pin(async move {
                if let Ok(wait) = TASK_LOCK_WAIT.try_with(|w| *w) {
                    let pragma = format!("PRAGMA busy_timeout = {}", wait.as_millis());
                    sqlx::raw_sql(sqlx::AssertSqlSafe(pragma))
                        .execute(conn)
                        .await?;
                }
                Ok(())
            })
        })
        .before_acquire(|conn, _| {
            Box::pin(async move {
                let wait = lock_wait();
                let statements = format!(
                    "PRAGMA busy_timeout = {}; SELECT 1 FROM sqlite_schema LIMIT 1",
                    wait.as_millis()
                );
                sqlx::raw_sql(sqlx::AssertSqlSafe(statements))
                    .execute(&mut *conn)
                    .await?;
                Ok(true)
            })
        })
        .connect_with(connect_options(path))
        .await
        .with_context(|| format!("opening SQLite database {}", path.display()))
}

pub(crate) fn micros(t: DateTime<Utc>) -> i64 {
    t.timestamp_micros()
}

pub(crate) fn opt_micros(t: Option<DateTime<Utc>>) -> Option<i64> {
    t.map(micros)
}

pub(crate) fn from_micros(v: i64) -> DateTime<Utc> {
    DateTime::from_timestamp_micros(v).unwrap_or_default()
}

pub(crate) fn time(row: &SqliteRow, col: &str) -> sqlx::Result<DateTime<Utc>> {
    Ok(from_micros(row.try_get(col)?))
}

pub(crate) fn opt_time(row: &SqliteRow, col: &str) -> sqlx::Result<Option<DateTime<Utc>>> {
    Ok(row.try_get::<Option<i64>, _>(col)?.map(from_micros))
}

pub(crate) fn encode_embedding(v: Option<&[f32]>) -> Option<Vec<u8>> {
    v.map(|v| v.iter().flat_map(|x| x.to_le_bytes()).collect())
}

pub(crate) fn decode_embedding(row: &SqliteRow, col: &str) -> sqlx::Result<Option<Vec<f32>>> {
    let bytes: Option<Vec<u8>> = row.try_get(col)?;
    Ok(bytes.map(|b| {
        b.chunks_exact(4)
            .map(|c| f32::from_le_bytes([c[0], c[1], c[2], c[3]]))
            .collect()
    }))
}

pub(crate) fn json_list(row: &SqliteRow, col: &str) -> sqlx::Result<Vec<String>> {
    let text: String = row.try_get(col)?;
    serde_json::from_str(&text).map_err(|e| sqlx::Error::Decode(Box::new(e)))
}

pub(crate) fn parse<T: FromStr>(row: &SqliteRow, col: &str) -> sqlx::Result<T>
where
    T::Err: std::error::Error + Send + Sync + 'static,
{
    let text: String = row.try_get(col)?;
    text.parse().map_err(|e| sqlx::Error::Decode(Box::new(e)))
}

/// Reads the lifecycle columns every node table has.
pub(crate) fn lifecycle(row: &SqliteRow) -> sqlx::Result<Lifecycle> {
    Ok(Lifecycle {
        salience: row.try_get("salience")?,
        state: parse::<MemoryState>(row, "state")?,
        confidence: row.try_get("confidence")?,
        access_count: row.try_get("access_count")?,
        recall_frequency: row.try_get("recall_frequency")?,
        last_recall_interval: row.try_get("last_recall_interval")?,
        decay_gradient: row.try_get("decay_gradient")?,
        last_accessed_at: opt_time(row, "last_accessed_at")?,
        last_decayed_at: opt_time(row, "last_decayed_at")?,
        ttl_policy: parse::<TtlPolicy>(row, "ttl_policy")?,
        pinned: row.try_get("pinned")?,
        created_at: time(row, "created_at")?,
        updated_at: time(row, "updated_at")?,
    })
}

/// Keys (or any list) as a JSON array, for `json_each` in a statement.
pub(crate) fn json<T: serde::Serialize + ?Sized>(
    keys: &T,
) -> cosmo_core::graph::GraphResult<String> {
    Ok(serde_json::to_string(keys).map_err(anyhow::Error::from)?)
}

/// The steps of `sql`'s query plan (`EXPLAIN QUERY PLAN`, each step's `detail`) on a
/// freshly migrated store, its parameters bound to `params` in order: for tests that
/// hold a statement to the indexes it must use.
#[cfg(test)]
pub(crate) async fn query_plan(sql: &str, params: &[&str]) -> Vec<String> {
    use cosmo_core::graph::StoreAdmin;
    let dir = tempfile::tempdir().unwrap();
    let graph = SqliteGraph::open(&dir.path().join("graph.db"))
        .await
        .unwrap();
    graph.migrate().await.unwrap();
    let mut query = sqlx::query(sqlx::AssertSqlSafe(format!("EXPLAIN QUERY PLAN {sql}")));
    for param in params {
        query = query.bind(*param);
    }
    query
        .fetch_all(graph.pool())
        .await
        .unwrap()
        .iter()
        .map(|r| r.get::<String, _>("detail"))
        .collect()
}
