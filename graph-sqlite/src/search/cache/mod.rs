//! What search reads, held in memory per user and kind of memory, and kept in step with
//! the file: the machinery the vector index (`vectors/`) and the full-text index
//! (`texts/`) share. Each is a [`Part`]: how to read a user's memories from the store,
//! how to hold them, what they weigh.
//!
//! **In step with every write.** Triggers log each change to what search reads, per
//! affected user, in the write's own transaction (`search_vector_log`: a memory's
//! vectors, text, visibility, time, and who may read a team Source). Before each search
//! the cache reads the log's bounds: nothing new, and it answers from memory; new
//! entries, and it re-reads the memories they name for this user (a deleted one is
//! dropped); entries pruned before it saw them, or gone with an erased user, and it
//! loads the user anew. So a write by any connection or process on the file is seen by
//! the next search, and a crash between a write and its index update cannot happen: the
//! log entry commits with the write, and the index reads it before answering.
//!
//! **Bounded.** All users' parts together stay within the budget: the least recently
//! searched are dropped to make room, and a user whose memories alone would not fit is
//! searched from the store instead (`None` from [`Cache::read`]).

mod log;
mod select;
#[cfg(test)]
mod tests;

use std::collections::HashMap;
use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering as AtomicOrdering};
use std::sync::{Arc, Mutex};

use cosmo_core::domain::Target;
use cosmo_core::graph::GraphResult;
use futures::TryStreamExt;
use sqlx::SqlitePool;
use sqlx::sqlite::SqliteRow;
use tokio::sync::{OwnedRwLockReadGuard, RwLock};

use self::log::{Bounds, catch_up};

pub(super) use self::select::{Filter, best_first};

/// One user's memories of one kind, as one index holds them.
pub(super) trait Part: Default + Send + Sync + 'static {
    type Entry: Send;

    /// The rows of the user's (`$1`) memories of `target`, whatever their state and
    /// time; with `some`, only those of the keys in `$2` (a JSON array).
    fn rows_sql(target: Target, some: bool) -> &'static str;

    /// One query (`$1` the user) answering about how many bytes the part would hold.
    fn size_sql(target: Target) -> String;

    /// A memory from its row; `None` when it cannot be searched (left out).
    fn from_row(target: Target, row: &SqliteRow) -> sqlx::Result<Option<(String, Self::Entry)>>;

    /// Replaces (or, with `None`, removes) what the part holds of `key`.
    fn put(&mut self, key: String, entry: Option<Self::Entry>);

    /// Memory held.
    fn bytes(&self) -> usize;

    /// Gives back spare capacity after loading.
    fn shrink(&mut self);
}

/// A part and where it stands against the log.
#[derive(Default)]
pub(super) struct State<P> {
    loaded: bool,
    /// The last log entry it reflects.
    seq: i64,
    /// The log position at which the user's memories were found not to fit the budget:
    /// until the log moves, searches read the store without trying again.
    too_big_at: Option<i64>,
    pub(super) part: P,
}

/// Every user's parts one index of this process holds.
pub(super) struct Cache<P> {
    budget: usize,
    parts: Mutex<HashMap<(String, Target), Handle<P>>>,
    tick: AtomicU64,
    /// Parts loaded whole (the first search of a user, and every reload).
    loads: AtomicU64,
}

/// A part and what eviction needs to know of it without its lock.
struct Handle<P> {
    state: Arc<RwLock<State<P>>>,
    bytes: Arc<AtomicUsize>,
    used: Arc<AtomicU64>,
}

impl<P> Clone for Handle<P> {
    fn clone(&self) -> Self {
        Self {
            state: self.state.clone(),
            bytes: self.bytes.clone(),
            used: self.used.clone(),
        }
    }
}

impl<P: Part> Cache<P> {
    /// A cache holding at most `budget` bytes; 0: none (every search reads the store).
    pub(super) fn new(budget: usize) -> Self {
        Self {
            budget,
            parts: Mutex::new(HashMap::new()),
            tick: AtomicU64::new(0),
            loads: AtomicU64::new(0),
        }
    }

    pub(super) fn budget(&self) -> usize {
        self.budget
    }

    /// Memory held now, in bytes.
    pub(super) fn bytes(&self) -> usize {
        self.parts
            .lock()
            .expect("search cache lock")
            .values()
            .map(|h| h.bytes.load(AtomicOrdering::Relaxed))
            .sum()
    }

    /// How many times a part was loaded whole.
    pub(super) fn loads(&self) -> u64 {
        self.loads.load(AtomicOrdering::Relaxed)
    }

    /// The user's part of `target`, in step with every write committed before the call;
    /// `None` when it does not fit the budget.
    pub(super) async fn read(
        &self,
        pool: &SqlitePool,
        user_id: &str,
        target: Target,
    ) -> GraphResult<Option<OwnedRwLockReadGuard<State<P>>>> {
        if self.budget == 0 {
            return Ok(None);
        }
        let handle = self.handle(user_id, target);
        handle.used.store(
            self.tick.fetch_add(1, AtomicOrdering::Relaxed),
            AtomicOrdering::Relaxed,
        );
        let bounds = Bounds::read(pool).await?;
        let state = handle.state.clone().read_owned().await;
        if state.too_big_at == Some(bounds.last) {
            return Ok(None);
        }
        if state.loaded && state.seq >= bounds.last {
            return Ok(Some(state));
        }
        drop(state);
        let mut state = handle.state.clone().write_owned().await;
        if !state.loaded || bounds.missed_after(state.seq) {
            self.load(pool, user_id, target, &mut state, bounds.last)
                .await?;
        } else if state.seq < bounds.last {
            let from = state.seq;
            catch_up(pool, user_id, target, &mut state, bounds.last).await?;
            // Entries after `from` pruned before it read them: load anew.
            if Bounds::read(pool).await?.missed_after(from) {
                self.load(pool, user_id, target, &mut state, bounds.last)
                    .await?;
            }
        }
        if state.part.bytes() > self.budget {
            *state = State {
                too_big_at: Some(bounds.last),
                ..State::default()
            };
        }
        handle
            .bytes
            .store(state.part.bytes(), AtomicOrdering::Relaxed);
        if state.too_big_at.is_some() {
            return Ok(None);
        }
        let state = state.downgrade();
        self.evict_beyond_budget(user_id, target);
        Ok(Some(state))
    }

    /// Drops what the cache holds of `user_id` (after erasing the user).
    pub(super) fn forget_user(&self, user_id: &str) {
        self.parts
            .lock()
            .expect("search cache lock")
            .retain(|(user, _), _| user != user_id);
    }

    /// Drops what the cache holds of `user_id`'s memories of `target`.
    pub(super) fn forget(&self, user_id: &str, target: Target) {
        self.parts
            .lock()
            .expect("search cache lock")
            .remove(&(user_id.to_owned(), target));
    }

    fn handle(&self, user_id: &str, target: Target) -> Handle<P> {
        self.parts
            .lock()
            .expect("search cache lock")
            .entry((user_id.to_owned(), target))
            .or_insert_with(|| Handle {
                state: Arc::new(RwLock::new(State::default())),
                bytes: Arc::new(AtomicUsize::new(0)),
                used: Arc::new(AtomicU64::new(0)),
            })
            .clone()
    }

    /// Loads every memory of the user's of `target` as of log entry `seq`; when they
    /// would not fit the budget, loads nothing and marks the part too big.
    async fn load(
        &self,
        pool: &SqlitePool,
        user_id: &str,
        target: Target,
        state: &mut State<P>,
        seq: i64,
    ) -> GraphResult<()> {
        self.loads.fetch_add(1, AtomicOrdering::Relaxed);
        let estimate: i64 = sqlx::query_scalar(sqlx::AssertSqlSafe(P::size_sql(target)))
            .bind(user_id)
            .fetch_one(pool)
            .await?;
        if usize::try_from(estimate).unwrap_or(usize::MAX) > self.budget {
            *state = State {
                too_big_at: Some(seq),
                ..State::default()
            };
            return Ok(());
        }
        *state = State::default();
        let mut rows = sqlx::query(P::rows_sql(target, false))
            .bind(user_id)
            .fetch(pool);
        while let Some(row) = rows.try_next().await? {
            if let Some((key, entry)) = P::from_row(target, &row)? {
                state.part.put(key, Some(entry));
            }
        }
        state.part.shrink();
        state.loaded = true;
        state.seq = seq;
        Ok(())
    }

    /// Drops the least recently searched parts (never `keep`'s) while the cache holds
    /// more than its budget.
    fn evict_beyond_budget(&self, user_id: &str, target: Target) {
        let mut parts = self.parts.lock().expect("search cache lock");
        let mut total: usize = parts
            .values()
            .map(|s| s.bytes.load(AtomicOrdering::Relaxed))
            .sum();
        while total > self.budget {
            let oldest = parts
                .iter()
                .filter(|((u, t), _)| !(u == user_id && *t == target))
                .min_by_key(|(_, s)| s.used.load(AtomicOrdering::Relaxed))
                .map(|(k, s)| (k.clone(), s.bytes.load(AtomicOrdering::Relaxed)));
            let Some((key, bytes)) = oldest else {
                break;
            };
            parts.remove(&key);
            total -= bytes;
        }
    }
}
