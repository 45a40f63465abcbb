//! One memory's lifecycle, and atomic lifecycle updates (an access, a pin, decay): the
//! lifecycles are read under a write lock (`lifecycle/lock_*`), the caller decides,
//! and the changes and their events are written, all in one transaction retried as a
//! whole on a transient failure. A concurrent update of the same memory waits for the
//! lock and then reads this one's result, so none is lost.

use super::super::bolt::list;
use super::super::lifecycle::{memory_row, reads, write_changes};
use super::super::{Neo4jGraph, finish, txn_rows};
use super::distinct;
use crate::domain::{LifecycleChange, MemoryKind, MemoryLifecycle};
use crate::graph::{GraphResult, LifecycleUpdate};

impl Neo4jGraph {
    pub(super) async fn memory_impl(
        &self,
        kind: MemoryKind,
        key: &str,
    ) -> GraphResult<Option<MemoryLifecycle>> {
        let q = reads(kind).0.bind().p("key", key);
        self.rows(q.query()?)
            .await?
            .first()
            .map(|r| memory_row(kind, r))
            .transpose()
    }

    pub(super) async fn update_lifecycles_impl(
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
