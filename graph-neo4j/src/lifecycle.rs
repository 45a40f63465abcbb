//! Lifecycle pages, reads and locked reads, batched lifecycle writes and the event log
//! on Neo4j. The label and key of each memory kind are fixed in its statement, picked
//! from the closed `MemoryKind` enum: Cypher text is never built from input.
//!
//! Atomic lifecycle updates (an access, a pin, decay): the lifecycles are read under a
//! write lock (`lifecycle/lock_*`), the caller decides, and the changes and their events
//! are written, all in one transaction retried as a whole on a transient failure. A
//! concurrent update of the same memory waits for the lock and then reads this one's
//! result, so none is lost.

use std::collections::BTreeMap;
use std::collections::btree_map::Entry;

use async_trait::async_trait;
use cosmo_core::domain::{LifecycleChange, LifecycleEvent, MemoryKind, MemoryLifecycle};
use cosmo_core::graph::{
    GraphError, GraphResult, LifecycleStore, LifecycleUpdate, last_change_per_key,
};
use neo4rs::{BoltType, Row, Txn};
use sha2::{Digest, Sha256};

use super::bolt::{Props, int, list, opt, string_column};
use super::cypher::{Statement, lifecycle as lc};
use super::{Neo4jGraph, decode, distinct, finish, txn_rows};

/// The page and apply statements of one memory kind.
fn statements(kind: MemoryKind) -> (&'static Statement, &'static Statement) {
    match kind {
        MemoryKind::Source => (&lc::PAGE_SOURCE, &lc::APPLY_SOURCE),
        MemoryKind::Node => (&lc::PAGE_NODE, &lc::APPLY_NODE),
        MemoryKind::Relationship => (&lc::PAGE_RELATIONSHIP, &lc::APPLY_RELATIONSHIP),
        MemoryKind::Storyline => (&lc::PAGE_STORYLINE, &lc::APPLY_STORYLINE),
        MemoryKind::Macro => (&lc::PAGE_MACRO, &lc::APPLY_MACRO),
        MemoryKind::Fact => (&lc::PAGE_FACT, &lc::APPLY_FACT),
    }
}

/// The read (`get_*`) and locked-read (`lock_*`) statements of one memory kind.
pub(super) fn reads(kind: MemoryKind) -> (&'static Statement, &'static Statement) {
    match kind {
        MemoryKind::Source => (&lc::GET_SOURCE, &lc::LOCK_SOURCE),
        MemoryKind::Node => (&lc::GET_NODE, &lc::LOCK_NODE),
        MemoryKind::Relationship => (&lc::GET_RELATIONSHIP, &lc::LOCK_RELATIONSHIP),
        MemoryKind::Storyline => (&lc::GET_STORYLINE, &lc::LOCK_STORYLINE),
        MemoryKind::Macro => (&lc::GET_MACRO, &lc::LOCK_MACRO),
        MemoryKind::Fact => (&lc::GET_FACT, &lc::LOCK_FACT),
    }
}

/// One memory's lifecycle from a row with `key`, `user_id` and `lifecycle` columns.
pub(super) fn memory_row(kind: MemoryKind, r: &Row) -> GraphResult<MemoryLifecycle> {
    Ok(MemoryLifecycle {
        kind,
        key: string_column(r, "key")?.ok_or_else(|| missing("key"))?,
        user_id: string_column(r, "user_id")?.ok_or_else(|| missing("user_id"))?,
        lifecycle: Props::from_row(r, "lifecycle")?.lifecycle()?,
    })
}

/// The event's id is derived from its content (memory key, new state, reason, time in
/// microseconds), exactly as the SQLite store derives it, so recording an event twice
/// keeps one and both stores name the same event alike.
pub fn event_id(e: &LifecycleEvent) -> String {
    let digest = Sha256::digest(
        format!(
            "{}\u{1f}{}\u{1f}{}\u{1f}{}",
            e.memory_key,
            e.new_state,
            e.reason,
            e.at.timestamp_micros()
        )
        .as_bytes(),
    );
    hex::encode(&digest[..12])
}

/// The `UNWIND` row of one lifecycle change (for `lifecycle/apply_*.cypher`).
pub fn change_row(statement: &Statement, c: &LifecycleChange) -> GraphResult<BoltType> {
    let l = &c.lifecycle;
    statement.row([
        ("key", c.key.as_str().into()),
        ("salience", l.salience.into()),
        ("state", l.state.as_str().into()),
        ("confidence", l.confidence.into()),
        ("access_count", l.access_count.into()),
        ("recall_frequency", l.recall_frequency.into()),
        ("last_recall_interval", l.last_recall_interval.into()),
        ("decay_gradient", l.decay_gradient.into()),
        ("last_accessed_at", opt(l.last_accessed_at)),
        ("last_decayed_at", opt(l.last_decayed_at)),
        ("ttl_policy", l.ttl_policy.as_str().into()),
        ("pinned", l.pinned.into()),
        ("updated_at", l.updated_at.into()),
    ])
}

/// The `UNWIND` row of one event (for `lifecycle/record_events.cypher`).
pub fn event_row(e: &LifecycleEvent) -> GraphResult<BoltType> {
    lc::RECORD_EVENTS.row([
        ("event_id", event_id(e).into()),
        ("memory_kind", e.memory_kind.as_str().into()),
        ("memory_key", e.memory_key.as_str().into()),
        ("user_id", e.user_id.as_str().into()),
        ("previous_state", e.previous_state.as_str().into()),
        ("new_state", e.new_state.as_str().into()),
        ("reason", e.reason.as_str().into()),
        ("actor", e.actor.as_str().into()),
        ("at", e.at.into()),
    ])
}

/// Records events inside `txn`, one row per distinct event id (the first of equal ids,
/// as SQLite's `ON CONFLICT DO NOTHING` keeps it).
pub(super) async fn record_events(txn: &mut Txn, events: &[&LifecycleEvent]) -> GraphResult<()> {
    let mut rows: BTreeMap<String, BoltType> = BTreeMap::new();
    for e in events {
        if let Entry::Vacant(slot) = rows.entry(event_id(e)) {
            slot.insert(event_row(e)?);
        }
    }
    if rows.is_empty() {
        return Ok(());
    }
    let q = lc::RECORD_EVENTS
        .bind()
        .p("rows", BoltType::List(rows.into_values().collect()));
    txn_rows(txn, q.query()?).await.map(drop)
}

/// Writes lifecycle changes and their events inside `txn`.
pub(super) async fn write_changes(txn: &mut Txn, changes: &[LifecycleChange]) -> GraphResult<()> {
    for (statement, rows) in change_batches(changes)? {
        let q = statement.bind().p("rows", BoltType::List(rows.into()));
        txn_rows(txn, q.query()?).await?;
    }
    let events: Vec<&LifecycleEvent> = changes.iter().filter_map(|c| c.event.as_ref()).collect();
    record_events(txn, &events).await
}

/// The apply batches of a list of changes: per kind, one row per key (the last change
/// of a key wins, as applying them in order would leave it).
pub fn change_batches(
    changes: &[LifecycleChange],
) -> GraphResult<Vec<(&'static Statement, Vec<BoltType>)>> {
    last_change_per_key(changes)
        .into_iter()
        .map(|(kind, per_key)| {
            let statement = statements(kind).1;
            let rows = per_key
                .into_iter()
                .map(|c| change_row(statement, c))
                .collect::<GraphResult<Vec<_>>>()?;
            Ok((statement, rows))
        })
        .collect()
}

fn missing(what: &str) -> GraphError {
    GraphError::Backend(anyhow::anyhow!("a lifecycle row without {what}"))
}

#[async_trait]
impl LifecycleStore for Neo4jGraph {
    async fn lifecycle_page(
        &self,
        kind: MemoryKind,
        after: Option<&str>,
        limit: usize,
    ) -> GraphResult<Vec<MemoryLifecycle>> {
        // Outside a key space one page; in one, pages until `limit` of its memories.
        let mut out = Vec::new();
        let mut cursor = after.map(str::to_owned);
        loop {
            let q = statements(kind)
                .0
                .bind()
                .p("after", cursor.as_deref().unwrap_or(""))
                .p("limit", int(limit));
            let page = self
                .rows(q.query()?)
                .await?
                .iter()
                .map(|r| memory_row(kind, r))
                .collect::<GraphResult<Vec<_>>>()?;
            let last = page.len() < limit;
            cursor = page.last().map(|m| m.key.clone());
            out.extend(page.into_iter().filter(|m| self.in_space(&m.user_id)));
            if self.key_space.is_none() || last || out.len() >= limit {
                out.truncate(limit);
                return Ok(out);
            }
        }
    }

    async fn apply_lifecycle(&self, changes: &[LifecycleChange]) -> GraphResult<()> {
        if changes.is_empty() {
            return Ok(());
        }
        self.retrying(|| async {
            let mut txn = self.begin().await?;
            let result = write_changes(&mut txn, changes).await;
            finish(txn, result).await
        })
        .await
    }

    async fn lifecycle_events(&self, memory_key: &str) -> GraphResult<Vec<LifecycleEvent>> {
        let q = lc::EVENTS.bind().p("memory_key", memory_key);
        self.rows(q.query()?)
            .await?
            .iter()
            .map(|r| decode::event(&Props::from_row(r, "event")?))
            .collect()
    }

    async fn memory(&self, kind: MemoryKind, key: &str) -> GraphResult<Option<MemoryLifecycle>> {
        let q = reads(kind).0.bind().p("key", key);
        self.rows(q.query()?)
            .await?
            .first()
            .map(|r| memory_row(kind, r))
            .transpose()
    }

    async fn update_lifecycles(
        &self,
        kind: MemoryKind,
        keys: &[String],
        update: &LifecycleUpdate<'_>,
    ) -> GraphResult<Vec<LifecycleChange>> {
        if keys.is_empty() {
            return Ok(Vec::new());
        }
        // Locks are taken in key order, so two batches over the same keys cannot
        // deadlock each other (other lock orders end in a transient error, retried).
        let keys = distinct(keys);
        self.retrying(|| async {
            let mut txn = self.begin().await?;
            let result = async {
                let q = reads(kind).1.bind().p("keys", list(keys.iter().copied()));
                let mut memories = txn_rows(&mut txn, q.query()?)
                    .await?
                    .iter()
                    .map(|r| memory_row(kind, r))
                    .collect::<GraphResult<Vec<_>>>()?;
                memories.sort_by(|a, b| a.key.cmp(&b.key));
                let changes: Vec<LifecycleChange> = memories.iter().filter_map(update).collect();
                write_changes(&mut txn, &changes).await?;
                Ok(changes)
            }
            .await;
            finish(txn, result).await
        })
        .await
    }
}
