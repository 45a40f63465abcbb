//! Episodic consolidation on Neo4j: faded Sources, clusters of old Sources around one
//! node, and turning them into an insight note with `derived_from` provenance while the
//! Sources are archived.

use std::collections::BTreeSet;

use async_trait::async_trait;
use chrono::{DateTime, Utc};
use cosmo_core::domain::{Actor, LifecycleEvent, MemoryKind, MemoryState, SourceBrief};
use cosmo_core::graph::{
    ClusterRules, EpisodicConsolidation, EpisodicStore, GraphError, GraphResult, SourceCluster,
};
use cosmo_core::ids;
use neo4rs::Txn;

use super::bolt::{Props, int, list, never, strings_column};
use super::cypher::maintenance as mt;
use super::extraction::count;
use super::hierarchy::{briefs, required};
use super::lifecycle::record_events;
use super::{Neo4jGraph, decode, finish, txn_rows};

/// Who writes consolidation insights (the SQLite store's author too).
pub const SYSTEM_AUTHOR: &str = "cosmo";

/// The insight note's id, derived from (node, author, no source, text).
fn insight_note_id(c: &EpisodicConsolidation) -> String {
    ids::note_id(&c.entity_key, SYSTEM_AUTHOR, None, &c.insight)
}

/// The insight note's statement.
pub(super) fn insight_note_query(c: &EpisodicConsolidation) -> GraphResult<neo4rs::Query> {
    let note_id = insight_note_id(c);
    mt::INSIGHT_NOTE
        .bind()
        .p("entity_key", c.entity_key.as_str())
        .p("note_id", note_id)
        .p("text", c.insight.as_str())
        .p("added_by", SYSTEM_AUTHOR)
        .p("lifetime", c.lifetime.as_str())
        .p(
            "expires_at",
            c.lifetime.expires_at(c.at).unwrap_or_else(never),
        )
        .p("at", c.at)
        .p(
            "source_keys",
            list(c.source_keys.iter().map(String::as_str)),
        )
        .query()
}

/// Writes one consolidation inside `txn`: the note (once), the `derived_from` links,
/// the archived Sources and their `consolidated` events. Returns how many Sources it
/// archived (not those archived before).
async fn consolidate(txn: &mut Txn, c: &EpisodicConsolidation) -> GraphResult<usize> {
    txn_rows(txn, insight_note_query(c)?).await?;
    let keys: BTreeSet<&str> = c.source_keys.iter().map(String::as_str).collect();
    if keys.is_empty() {
        return Ok(0);
    }
    let q = mt::DERIVE
        .bind()
        .p("entity_key", c.entity_key.as_str())
        .p("source_keys", list(keys.iter().copied()))
        .p("user_id", c.user_id.as_str())
        .p("note_id", insight_note_id(c))
        .p("at", c.at);
    // As SQLite's foreign keys refuse a link to a missing node or Source.
    if count(txn, q.query()?, "linked").await? < keys.len() {
        return Err(GraphError::NotFound(format!(
            "node {} or one of the Sources {keys:?}",
            c.entity_key
        )));
    }
    let q = mt::ARCHIVE_SOURCES
        .bind()
        .p("source_keys", list(keys.iter().copied()))
        .p("user_id", c.user_id.as_str())
        .p("at", c.at);
    let events = txn_rows(txn, q.query()?)
        .await?
        .iter()
        .map(|r| {
            Ok(LifecycleEvent {
                memory_kind: MemoryKind::Source,
                memory_key: required(r, "entity_key")?,
                user_id: c.user_id.clone(),
                previous_state: required(r, "previous")?
                    .parse::<MemoryState>()
                    .map_err(anyhow::Error::from)?,
                new_state: MemoryState::Archived,
                reason: "consolidated".into(),
                actor: Actor::System,
                at: c.at,
            })
        })
        .collect::<GraphResult<Vec<_>>>()?;
    record_events(txn, &events.iter().collect::<Vec<_>>()).await?;
    Ok(events.len())
}

#[async_trait]
impl EpisodicStore for Neo4jGraph {
    async fn faded_sources(
        &self,
        older_than: DateTime<Utc>,
        salience_below: f64,
        limit: usize,
    ) -> GraphResult<Vec<(SourceBrief, Vec<String>)>> {
        let q = mt::FADED_SOURCES
            .bind()
            .p("older_than", older_than)
            .p("salience_below", salience_below);
        self.scan(
            q,
            limit,
            |r| {
                let mut mentioned = strings_column(r, "mentioned")?;
                mentioned.sort_unstable();
                Ok((decode::brief(&Props::from_row(r, "brief")?)?, mentioned))
            },
            |(brief, _)| brief.user_id.as_str(),
        )
        .await
    }

    async fn source_clusters(
        &self,
        rules: &ClusterRules,
        limit: usize,
    ) -> GraphResult<Vec<SourceCluster>> {
        let q = mt::SOURCE_CLUSTERS
            .bind()
            .p("older_than", rules.older_than)
            .p("min_sources", int(rules.min_sources))
            .p("anchor_share", rules.anchor_share)
            .p("anchor_min_sources", int(rules.anchor_min_sources));
        self.scan(
            q,
            limit,
            |r| {
                Ok(SourceCluster {
                    entity_key: required(r, "entity_key")?,
                    user_id: required(r, "user_id")?,
                    sources: briefs(r, "briefs")?,
                })
            },
            |r| r.user_id.as_str(),
        )
        .await
    }

    async fn consolidate_sources(&self, c: &EpisodicConsolidation) -> GraphResult<usize> {
        self.retrying(|| async {
            let mut txn = self.begin().await?;
            let result = consolidate(&mut txn, c).await;
            finish(txn, result).await
        })
        .await
    }

    async fn derived_sources(&self, entity_key: &str) -> GraphResult<Vec<String>> {
        let q = mt::DERIVED_SOURCES.bind().p("entity_key", entity_key);
        self.rows(q.query()?)
            .await?
            .iter()
            .map(|r| required(r, "entity_key"))
            .collect()
    }
}
