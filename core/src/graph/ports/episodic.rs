//! Episodic consolidation: old, faded Sources sharing a node become an insight on it.

use async_trait::async_trait;
use chrono::{DateTime, Utc};
use serde::Serialize;

use crate::domain::{NoteLifetime, SourceBrief};
use crate::graph::GraphResult;

/// Which old Sources make a cluster: enough of a user's Sources sharing one node, minus
/// back-fills received recently and minus the anchors (nearly) every Source of that
/// user shares.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct ClusterRules {
    /// A Source counts only when both its event time (`started_at`, else `created_at`)
    /// and the time Cosmo received it (`created_at`) are before this: a back-filled
    /// history is not consolidated the night it arrives.
    pub older_than: DateTime<Utc>,
    /// A node needs at least this many such Sources of its user (unarchived, unpinned).
    pub min_sources: usize,
    /// A shared anchor makes no cluster: a node mentioned by more than this share of
    /// all its user's own Sources (any state, age or pin: the user's whole history,
    /// so archiving never changes the verdict)…
    pub anchor_share: f64,
    /// …once that user has at least this many Sources.
    pub anchor_min_sources: usize,
}

impl ClusterRules {
    /// The count alone: no node is a shared anchor.
    pub fn without_anchor_cut(older_than: DateTime<Utc>, min_sources: usize) -> Self {
        Self {
            older_than,
            min_sources,
            anchor_share: 1.0,
            anchor_min_sources: usize::MAX,
        }
    }
}

/// Old Sources sharing one semantic node, to be consolidated into it.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct SourceCluster {
    pub entity_key: String,
    pub user_id: String,
    pub sources: Vec<SourceBrief>,
}

/// Episodic → semantic: an insight becomes a note on a node (with `derived_from` links
/// to the Sources it came from), and those Sources are archived.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct EpisodicConsolidation {
    pub entity_key: String,
    pub user_id: String,
    pub insight: String,
    pub lifetime: NoteLifetime,
    pub source_keys: Vec<String>,
    pub at: DateTime<Utc>,
}

#[async_trait]
pub trait EpisodicStore: Send + Sync {
    /// Unarchived, unpinned Sources that both happened and were received (`created_at`)
    /// before `older_than`, with salience below `salience_below`, oldest event first,
    /// with the nodes (not the owner Person) their owner's extraction mentions; only
    /// Sources that mention at least one such node (an insight on it carries what the
    /// Source held once it is archived).
    async fn faded_sources(
        &self,
        older_than: DateTime<Utc>,
        salience_below: f64,
        limit: usize,
    ) -> GraphResult<Vec<(SourceBrief, Vec<String>)>>;

    /// Nodes (not owner Persons, not shared anchors) that at least `rules.min_sources`
    /// of their user's own unarchived, unpinned Sources mention, counting only Sources
    /// that both happened and were received before `rules.older_than`; biggest first,
    /// each with those Sources, oldest first. A Source may be in several clusters.
    async fn source_clusters(
        &self,
        rules: &ClusterRules,
        limit: usize,
    ) -> GraphResult<Vec<SourceCluster>>;

    /// Applies one episodic consolidation in one transaction: the insight note (once),
    /// a `derived_from` link to each Source, and the Sources archived. Returns how many
    /// Sources this call archived (not those archived already, nor pinned ones), so a
    /// Source in several clusters is counted once; repeating it changes nothing and
    /// returns 0.
    async fn consolidate_sources(&self, c: &EpisodicConsolidation) -> GraphResult<usize>;

    /// The Sources a node's consolidated knowledge derives from (`derived_from`), sorted.
    async fn derived_sources(&self, entity_key: &str) -> GraphResult<Vec<String>>;
}
