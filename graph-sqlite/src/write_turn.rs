//! One writer at a time per SQLite file in this process, served in arrival order.
//!
//! SQLite lets one transaction write at a time and makes the others poll: a writer
//! that finds the file locked sleeps (1 ms, 2 ms, … then 100 ms at a time) and tries
//! again until its busy timeout. Polling is not a queue. Under steady load (the API's
//! 16 concurrent `POST /api/sources`, each writing the graph and the queue) an unlucky
//! writer can keep waking just after another one took the lock, and give up after the
//! API's `server.lock_wait_ms` although no transaction held the lock that long: a 503
//! for about one request in 17,000.
//!
//! So every `BEGIN IMMEDIATE` transaction Cosmo opens takes this process's turn for its
//! file first ([`begin_write`]): writers of one process wait in line on an async lock
//! and meet SQLite's lock only when their turn comes, where it is free unless another
//! process (or a write outside these transactions) holds it. The turn is given back
//! when the transaction ends (commit, rollback or drop).
//!
//! Waiting for the turn counts like waiting for the lock: at most the task's lock wait
//! ([`with_lock_wait`](crate::with_lock_wait), else [`LOCK_WAIT`](crate::LOCK_WAIT)),
//! then the write fails as an outage ("database is locked"), which the API answers
//! with 503 and a job retries.

use std::collections::HashMap;
use std::ops::{Deref, DerefMut};
use std::path::PathBuf;
use std::sync::{Arc, LazyLock, Mutex};

use sqlx::{SqlSafeStr, Sqlite, SqliteConnection, SqlitePool, Transaction};
use tokio::sync::OwnedMutexGuard;

/// The turn of each SQLite file this process writes, by the path its pools opened.
static TURNS: LazyLock<Mutex<HashMap<PathBuf, Arc<tokio::sync::Mutex<()>>>>> =
    LazyLock::new(Default::default);

/// A `BEGIN IMMEDIATE` transaction holding its file's write turn. Statements run on it
/// as on a [`Transaction`] (`&mut *tx`); dropping it uncommitted rolls it back.
#[derive(Debug)]
pub struct WriteTx {
    // Declared first, so dropped first: the rollback is on its way before the turn
    // passes to the next writer.
    tx: Transaction<'static, Sqlite>,
    _turn: OwnedMutexGuard<()>,
}

impl WriteTx {
    pub async fn commit(self) -> sqlx::Result<()> {
        self.tx.commit().await
    }

    pub async fn rollback(self) -> sqlx::Result<()> {
        self.tx.rollback().await
    }
}

impl Deref for WriteTx {
    type Target = SqliteConnection;

    fn deref(&self) -> &SqliteConnection {
        &self.tx
    }
}

impl DerefMut for WriteTx {
    fn deref_mut(&mut self) -> &mut SqliteConnection {
        &mut self.tx
    }
}

/// Waits for this process's turn to write `pool`'s file, then begins a `BEGIN
/// IMMEDIATE` transaction (which takes SQLite's write lock up front: a deferred
/// transaction that reads and then writes can fail with SQLITE_BUSY when another
/// process wrote in between).
pub async fn begin_write(pool: &SqlitePool) -> sqlx::Result<WriteTx> {
    // The connection first: the pool's checks on it (`before_acquire`) run outside the
    // turn, which is then held only for the transaction itself.
    let conn = pool.acquire().await?;
    let turn = {
        let path = pool.connect_options().get_filename().to_path_buf();
        let mut turns = TURNS.lock().unwrap_or_else(|e| e.into_inner());
        turns.entry(path).or_default().clone()
    };
    let wait = crate::lock_wait();
    let Ok(turn) = tokio::time::timeout(wait, turn.lock_owned()).await else {
        return Err(sqlx::Error::Io(std::io::Error::new(
            std::io::ErrorKind::TimedOut,
            format!(
                "database is locked: this process's other writers held it for {} ms",
                wait.as_millis()
            ),
        )));
    };
    // What `SqlitePool::begin_with` does, on the connection already acquired.
    let tx = Transaction::begin(conn, Some("BEGIN IMMEDIATE".into_sql_str())).await?;
    Ok(WriteTx { tx, _turn: turn })
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::Duration;

    async fn pool(dir: &tempfile::TempDir) -> SqlitePool {
        let pool = crate::open_pool(&dir.path().join("turn.db"), 4)
            .await
            .unwrap();
        sqlx::query("CREATE TABLE IF NOT EXISTS t (n INTEGER)")
            .execute(&pool)
            .await
            .unwrap();
        pool
    }

    async fn insert(pool: &SqlitePool, n: i64) -> sqlx::Result<()> {
        let mut tx = begin_write(pool).await?;
        sqlx::query("INSERT INTO t (n) VALUES ($1)")
            .bind(n)
            .execute(&mut *tx)
            .await?;
        tx.commit().await
    }

    #[tokio::test]
    async fn pools_on_one_file_share_its_turn_and_a_writer_gives_up_at_its_lock_wait() {
        let dir = tempfile::tempdir().unwrap();
        let (a, b) = (pool(&dir).await, pool(&dir).await);
        let held = begin_write(&a).await.unwrap();
        // The other pool's writer waits for the turn, not for SQLite's lock: it gives up
        // with the turn's error, an outage (I/O), after its own lock wait.
        let err = crate::with_lock_wait(Duration::from_millis(100), insert(&b, 1))
            .await
            .expect_err("the turn is held");
        assert!(matches!(err, sqlx::Error::Io(_)), "{err:?}");
        assert!(err.to_string().contains("other writers"), "{err}");
        // A writer that waits longer gets the turn when the holder rolls back (dropped).
        let waiting = tokio::spawn(async move { insert(&b, 2).await });
        tokio::time::sleep(Duration::from_millis(50)).await;
        drop(held);
        waiting.await.unwrap().unwrap();
        let rows: Vec<i64> = sqlx::query_scalar("SELECT n FROM t")
            .fetch_all(&a)
            .await
            .unwrap();
        assert_eq!(rows, [2], "only the writer that got its turn wrote");
    }

    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn concurrent_writers_all_commit() {
        let dir = tempfile::tempdir().unwrap();
        let pool = pool(&dir).await;
        let mut tasks = tokio::task::JoinSet::new();
        for n in 0..64 {
            let pool = pool.clone();
            tasks.spawn(async move { insert(&pool, n).await });
        }
        while let Some(done) = tasks.join_next().await {
            done.unwrap().unwrap();
        }
        let count: i64 = sqlx::query_scalar("SELECT count(*) FROM t")
            .fetch_one(&pool)
            .await
            .unwrap();
        assert_eq!(count, 64);
    }
}
