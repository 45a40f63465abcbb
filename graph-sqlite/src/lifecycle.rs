//! Lifecycle pages, lifecycle updates (written in bulk by `bulk`) and the event log. Tables and key columns
//! come from `MemoryKind` through the `per_kind!` macro: SQL text is never built from
//! input.

use async_trait::async_trait;
use cosmo_core::domain::{
    Actor, Lifecycle, LifecycleChange, LifecycleEvent, MemoryKind, MemoryLifecycle, MemoryState,
};
use cosmo_core::graph::{GraphResult, LifecycleStore, LifecycleUpdate, last_change_per_key};
use cosmo_core::query_file;
use sha2::{Digest, Sha256};
use sqlx::Row;
use sqlx::sqlite::SqliteRow;

use super::bulk;
use super::{SqliteGraph, lifecycle, micros, parse, time};

/// Expands `$template!(table, key column)` for the table of `kind`.
macro_rules! per_kind {
    ($kind:expr, $template:ident) => {
        match $kind {
            MemoryKind::Source => $template!("sources", "entity_key"),
            MemoryKind::Node => $template!("nodes", "entity_key"),
            MemoryKind::Relationship => $template!("relationships", "rel_key"),
            MemoryKind::Storyline => $template!("storylines", "storyline_id"),
            MemoryKind::Macro => $template!("macros", "macro_id"),
            MemoryKind::Fact => $template!("facts", "fact_id"),
        }
    };
}
pub(super) use per_kind;

macro_rules! page_sql {
    ($table:literal, $key:literal) => {
        concat!(
            "SELECT ", $key, " AS key, user_id, salience, state, confidence, access_count, recall_frequency,
                last_recall_interval, decay_gradient, last_accessed_at, last_decayed_at, ttl_policy, pinned,
                created_at, updated_at
             FROM ", $table, " WHERE ", $key, " > $1 ORDER BY ", $key, " LIMIT $2"
        )
    };
}

macro_rules! select_sql {
    ($table:literal, $key:literal) => {
        concat!(
            "SELECT ", $key, " AS key, user_id, salience, state, confidence, access_count, recall_frequency,
                last_recall_interval, decay_gradient, last_accessed_at, last_decayed_at, ttl_policy, pinned,
                created_at, updated_at
             FROM ", $table, " WHERE ", $key, " IN (SELECT value FROM json_each($1)) ORDER BY ", $key
        )
    };
}

fn memory_from_row(kind: MemoryKind, r: &SqliteRow) -> sqlx::Result<MemoryLifecycle> {
    Ok(MemoryLifecycle {
        kind,
        key: r.try_get("key")?,
        user_id: r.try_get("user_id")?,
        lifecycle: lifecycle(r)?,
    })
}

/// Writes the changes in bulk (every lifecycle column, rows found by key; the last
/// change of a key wins), then their events.
async fn write_changes(tx: &mut crate::WriteTx, changes: &[LifecycleChange]) -> GraphResult<()> {
    for (kind, per_key) in last_change_per_key(changes) {
        let rows: Vec<(&str, &Lifecycle)> = per_key
            .iter()
            .map(|c| (c.key.as_str(), &c.lifecycle))
            .collect();
        bulk::write(tx, kind, &rows).await?;
    }
    let events: Vec<&LifecycleEvent> = changes.iter().filter_map(|c| c.event.as_ref()).collect();
    bulk::record_events(tx, &events, event_id).await
}

/// The event's id is derived from its content, so recording it twice keeps one.
fn event_id(e: &LifecycleEvent) -> String {
    let digest = Sha256::digest(
        format!(
            "{}\u{1f}{}\u{1f}{}\u{1f}{}",
            e.memory_key,
            e.new_state,
            e.reason,
            micros(e.at)
        )
        .as_bytes(),
    );
    hex::encode(&digest[..12])
}

pub(super) async fn record_event(tx: &mut crate::WriteTx, e: &LifecycleEvent) -> GraphResult<()> {
    bulk::record_events(tx, &[e], event_id).await
}

fn event_from_row(r: &SqliteRow) -> sqlx::Result<LifecycleEvent> {
    Ok(LifecycleEvent {
        memory_kind: parse::<MemoryKind>(r, "memory_kind")?,
        memory_key: r.try_get("memory_key")?,
        user_id: r.try_get("user_id")?,
        previous_state: parse::<MemoryState>(r, "previous_state")?,
        new_state: parse::<MemoryState>(r, "new_state")?,
        reason: r.try_get("reason")?,
        actor: parse::<Actor>(r, "actor")?,
        at: time(r, "at")?,
    })
}

#[async_trait]
impl LifecycleStore for SqliteGraph {
    async fn lifecycle_page(
        &self,
        kind: MemoryKind,
        after: Option<&str>,
        limit: usize,
    ) -> GraphResult<Vec<MemoryLifecycle>> {
        let sql: &'static str = per_kind!(kind, page_sql);
        let rows = sqlx::query(sql)
            .bind(after.unwrap_or(""))
            .bind(limit as i64)
            .fetch_all(&self.pool)
            .await?;
        Ok(rows
            .iter()
            .map(|r| memory_from_row(kind, r))
            .collect::<sqlx::Result<_>>()?)
    }

    async fn apply_lifecycle(&self, changes: &[LifecycleChange]) -> GraphResult<()> {
        if changes.is_empty() {
            return Ok(());
        }
        let mut tx = self.begin().await?;
        write_changes(&mut tx, changes).await?;
        tx.commit().await?;
        Ok(())
    }

    async fn lifecycle_events(&self, memory_key: &str) -> GraphResult<Vec<LifecycleEvent>> {
        let rows = sqlx::query(query_file!("lifecycle/lifecycle_events.sql"))
            .bind(memory_key)
            .fetch_all(&self.pool)
            .await?;
        Ok(rows
            .iter()
            .map(event_from_row)
            .collect::<sqlx::Result<_>>()?)
    }

    async fn memory(&self, kind: MemoryKind, key: &str) -> GraphResult<Option<MemoryLifecycle>> {
        let sql: &'static str = per_kind!(kind, select_sql);
        let row = sqlx::query(sql)
            .bind(serde_json::to_string(&[key]).map_err(anyhow::Error::from)?)
            .fetch_optional(&self.pool)
            .await?;
        Ok(row.as_ref().map(|r| memory_from_row(kind, r)).transpose()?)
    }

    /// Read, decide and write in one `BEGIN IMMEDIATE` transaction: the write lock is
    /// held from the read on, so a concurrent update waits and then sees this one.
    async fn update_lifecycles(
        &self,
        kind: MemoryKind,
        keys: &[String],
        update: &LifecycleUpdate<'_>,
    ) -> GraphResult<Vec<LifecycleChange>> {
        if keys.is_empty() {
            return Ok(Vec::new());
        }
        let mut tx = self.begin().await?;
        let sql: &'static str = per_kind!(kind, select_sql);
        let rows = sqlx::query(sql)
            .bind(serde_json::to_string(keys).map_err(anyhow::Error::from)?)
            .fetch_all(&mut *tx)
            .await?;
        let mut changes = Vec::new();
        for r in &rows {
            if let Some(change) = update(&memory_from_row(kind, r)?) {
                changes.push(change);
            }
        }
        write_changes(&mut tx, &changes).await?;
        tx.commit().await?;
        Ok(changes)
    }
}
