//! Memories' lifecycles: read in pages, written with their events, updated atomically.

use std::collections::BTreeMap;

use async_trait::async_trait;

use crate::domain::{LifecycleChange, LifecycleEvent, MemoryKind, MemoryLifecycle};
use crate::graph::GraphResult;

/// Decides one memory's new lifecycle (and event) from its current one, inside the
/// store's write transaction; `None` leaves it unchanged.
pub type LifecycleUpdate<'a> =
    dyn Fn(&MemoryLifecycle) -> Option<LifecycleChange> + Send + Sync + 'a;

/// The changes to write, per kind and key: when one key has several, the last wins, as
/// writing them one after the other would leave it. Bulk writes need this, since one
/// statement cannot update a row twice.
pub fn last_change_per_key(
    changes: &[LifecycleChange],
) -> BTreeMap<MemoryKind, Vec<&LifecycleChange>> {
    let mut per_kind: BTreeMap<MemoryKind, BTreeMap<&str, &LifecycleChange>> = BTreeMap::new();
    for c in changes {
        per_kind
            .entry(c.kind)
            .or_default()
            .insert(c.key.as_str(), c);
    }
    per_kind
        .into_iter()
        .map(|(kind, by_key)| (kind, by_key.into_values().collect()))
        .collect()
}

#[async_trait]
pub trait LifecycleStore: Send + Sync {
    /// One page of memories of `kind`, ordered by key, after `after`.
    async fn lifecycle_page(
        &self,
        kind: MemoryKind,
        after: Option<&str>,
        limit: usize,
    ) -> GraphResult<Vec<MemoryLifecycle>>;

    /// Writes new lifecycles and their events, all in one transaction.
    async fn apply_lifecycle(&self, changes: &[LifecycleChange]) -> GraphResult<()>;

    /// A memory's state changes, oldest first.
    async fn lifecycle_events(&self, memory_key: &str) -> GraphResult<Vec<LifecycleEvent>>;

    /// One memory's lifecycle, or `None`.
    async fn memory(&self, kind: MemoryKind, key: &str) -> GraphResult<Option<MemoryLifecycle>>;

    /// Reads the lifecycles of `keys` inside one write transaction, asks `update` for
    /// each one's change, writes the changes and their events, and returns them. Keys
    /// that do not exist are skipped. Concurrent updates of the same memory serialise:
    /// none is lost (an access during decay, a pin during an access).
    async fn update_lifecycles(
        &self,
        kind: MemoryKind,
        keys: &[String],
        update: &LifecycleUpdate<'_>,
    ) -> GraphResult<Vec<LifecycleChange>>;
}
