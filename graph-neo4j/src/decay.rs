//! Decay on Neo4j, set-based: a page of memories decayed by a Cypher statement that does
//! the arithmetic of [`cosmo_core::lifecycle::decay`] itself, so no lifecycle travels to
//! Rust and back. The pure function stays the definition: the graph contract suite holds
//! the statement to it.
//!
//! A page is one write transaction, retried as a whole on a transient failure: (1) the
//! page (`lifecycle/decay_page_*`: at most `limit` element ids after `after`, in key
//! order), (2) one statement that write-locks each memory before reading its lifecycle,
//! decides, writes what changed and returns the memories archived
//! (`lifecycle/decay_nodes` or `decay_relationships`), (3) their events, named in Rust as
//! every event is (`lifecycle/record_events`). An access or a pin committed meanwhile is
//! either seen or waits for the lock, never lost.

use std::collections::HashMap;

use async_trait::async_trait;
use chrono::{DateTime, Utc};
use cosmo_core::domain::{Actor, LifecycleEvent, MemoryKind, MemoryState};
use cosmo_core::graph::{DecayPage, DecayStore, GraphError, GraphResult, to_stored_precision};
use cosmo_core::lifecycle::{LifecycleParams, MemoryClass};
use neo4rs::Txn;

use super::bolt::{Props, int, list, string_column};
use super::cypher::{Statement, lifecycle as lc};
use super::lifecycle::record_events;
use super::{Neo4jGraph, finish, txn_rows};

/// The page statement and the decay statement of one memory kind.
fn statements(kind: MemoryKind) -> (&'static Statement, &'static Statement) {
    match kind {
        MemoryKind::Source => (&lc::DECAY_PAGE_SOURCE, &lc::DECAY_NODES),
        MemoryKind::Node => (&lc::DECAY_PAGE_NODE, &lc::DECAY_NODES),
        MemoryKind::Relationship => (&lc::DECAY_PAGE_RELATIONSHIP, &lc::DECAY_RELATIONSHIPS),
        MemoryKind::Storyline => (&lc::DECAY_PAGE_STORYLINE, &lc::DECAY_NODES),
        MemoryKind::Macro => (&lc::DECAY_PAGE_MACRO, &lc::DECAY_NODES),
        MemoryKind::Fact => (&lc::DECAY_PAGE_FACT, &lc::DECAY_NODES),
    }
}

#[async_trait]
impl DecayStore for Neo4jGraph {
    async fn decay_page(
        &self,
        kind: MemoryKind,
        after: Option<&str>,
        limit: usize,
        as_of: DateTime<Utc>,
        params: &LifecycleParams,
    ) -> GraphResult<DecayPage> {
        let as_of = to_stored_precision(as_of);
        self.retrying(|| async {
            let mut txn = self.begin().await?;
            let result = async {
                let page = self.decay_ids(&mut txn, kind, after, limit).await?;
                decay_ids_in(&mut txn, kind, &page, as_of, params).await
            }
            .await;
            finish(txn, result).await
        })
        .await
    }
}

impl Neo4jGraph {
    /// The page's element ids and keys (in a key space, pages read on until they hold
    /// `limit` of its memories, or none are left).
    async fn decay_ids(
        &self,
        txn: &mut Txn,
        kind: MemoryKind,
        after: Option<&str>,
        limit: usize,
    ) -> GraphResult<Vec<(String, String)>> {
        let mut out = Vec::new();
        let mut cursor = after.unwrap_or("").to_owned();
        loop {
            let q = statements(kind)
                .0
                .bind()
                .p("after", cursor.as_str())
                .p("limit", int(limit));
            let rows = txn_rows(txn, q.query()?).await?;
            let last = rows.len() < limit;
            for r in &rows {
                let id = string_column(r, "id")?.ok_or_else(|| missing("id"))?;
                let key = string_column(r, "key")?.ok_or_else(|| missing("key"))?;
                let user = string_column(r, "user_id")?.unwrap_or_default();
                cursor.clone_from(&key);
                if self.in_space(&user) {
                    out.push((id, key));
                }
            }
            if self.key_space.is_none() || last || out.len() >= limit {
                out.truncate(limit);
                return Ok(out);
            }
        }
    }
}

/// Decays the memories of `page` (element id and key, in key order), in `txn`.
async fn decay_ids_in(
    txn: &mut Txn,
    kind: MemoryKind,
    page: &[(String, String)],
    as_of: DateTime<Utc>,
    params: &LifecycleParams,
) -> GraphResult<DecayPage> {
    let Some((_, last_key)) = page.last() else {
        return Ok(DecayPage::default());
    };
    let keys: HashMap<&str, &str> = page
        .iter()
        .map(|(id, key)| (id.as_str(), key.as_str()))
        .collect();
    let decay = statements(kind).1;
    let deadline_days = match kind.class() {
        MemoryClass::Episodic => params.ephemeral_episodic_days,
        MemoryClass::Semantic => params.ephemeral_semantic_days,
    };
    let q = decay
        .bind()
        .p("ids", list(page.iter().map(|(id, _)| id.as_str())))
        .p("as_of", as_of)
        .p("base_rate", params.base_rate)
        .p("confident_candidate", params.confident_candidate)
        .p("archive_below", params.archive_below)
        .p("ephemeral_seconds", deadline_days.saturating_mul(86_400));
    let rows = txn_rows(txn, q.query()?).await?;
    let row = rows.first().ok_or_else(|| missing("its counts"))?;
    let changed = row
        .get::<i64>("changed")
        .map_err(|e| GraphError::Backend(anyhow::anyhow!("decay's count of changes: {e}")))?;
    let mut events = Vec::new();
    for a in Props::list_from_row(row, "archived")? {
        let id = a.string("id")?;
        let key = keys
            .get(id.as_str())
            .ok_or_else(|| missing("a known element id"))?;
        events.push(LifecycleEvent {
            memory_kind: kind,
            memory_key: (*key).to_owned(),
            user_id: a.string("user_id")?,
            previous_state: a.parse::<MemoryState>("state")?,
            new_state: MemoryState::Archived,
            reason: a.string("reason")?,
            actor: Actor::System,
            at: as_of,
        });
    }
    record_events(txn, &events.iter().collect::<Vec<_>>()).await?;
    Ok(DecayPage {
        examined: page.len(),
        last_key: Some(last_key.clone()),
        changed: usize::try_from(changed).unwrap_or(0),
        archived: events.len(),
    })
}

fn missing(what: &str) -> GraphError {
    GraphError::Backend(anyhow::anyhow!("a decay row without {what}"))
}
