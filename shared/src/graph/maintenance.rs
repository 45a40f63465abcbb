//! What the nightly and weekly jobs need from a graph store: walking memories in bounded
//! pages for decay, the event log, Storyline and Macro promotion and refresh, description
//! consolidation, note cleanup and episodic consolidation. Every read is bounded
//! (`limit`); every write is one transaction and safe to repeat.

use async_trait::async_trait;
use chrono::{DateTime, Utc};
use serde::Serialize;

use std::collections::BTreeMap;

use super::{GraphResult, ReadStore};
use crate::domain::{
    LifecycleChange, LifecycleEvent, Macro, MemoryKind, MemoryLifecycle, NoteLifetime,
    Relationship, SemanticNode, SourceBrief, Storyline,
};
use crate::lifecycle::{self, LifecycleParams};

/// What one [`MaintenanceStore::decay_page`] call read and wrote.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct DecayPage {
    /// How many memories the page held: at most the `limit` asked for; fewer means the
    /// walk has reached the last key.
    pub examined: usize,
    /// The page's last key, where the next page starts (`None`: the page was empty).
    pub last_key: Option<String>,
    /// Memories whose lifecycle changed.
    pub changed: usize,
    /// Of those, memories archived (each with its event).
    pub archived: usize,
}

/// A time as the stores keep it: to the microsecond. Decay compares its as-of time with
/// stored ones, so a finer one (an operator's manual run may name one) is cut to the
/// same precision first; otherwise a repeated run would find every memory a fraction of
/// a microsecond older and write it again.
pub fn to_stored_precision(at: DateTime<Utc>) -> DateTime<Utc> {
    use chrono::SubsecRound;
    at.trunc_subsecs(6)
}

/// [`MaintenanceStore::decay_page`] from two generic operations, for a store without a
/// set-based statement: the page read, then every memory of it decided again by
/// [`lifecycle::decay`] under the store's lock ([`ReadStore::update_lifecycles`]), so an
/// access or a pin since the read is not lost; the changes are written in bulk.
pub async fn decay_page_by_parts<G: MaintenanceStore + ReadStore + ?Sized>(
    g: &G,
    kind: MemoryKind,
    after: Option<&str>,
    limit: usize,
    as_of: DateTime<Utc>,
    params: &LifecycleParams,
) -> GraphResult<DecayPage> {
    let as_of = to_stored_precision(as_of);
    let page = g.lifecycle_page(kind, after, limit).await?;
    let keys: Vec<String> = page.iter().map(|m| m.key.clone()).collect();
    let changes = g
        .update_lifecycles(kind, &keys, &|m| lifecycle::decay_change(m, as_of, params))
        .await?;
    Ok(DecayPage {
        examined: page.len(),
        last_key: page.last().map(|m| m.key.clone()),
        changed: changes.len(),
        archived: changes.iter().filter(|c| c.event.is_some()).count(),
    })
}

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

/// What an anchor needs to get a Storyline (`promote-storylines`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct StorylineRules {
    /// Sources about the anchor not yet in one of its Storylines (5).
    pub min_sources: i64,
    /// Distinct event days among them (3).
    pub min_days: i64,
    /// The earliest of them happened before this.
    pub first_before: DateTime<Utc>,
}

/// An anchor ready for a Storyline, with the Sources it will include.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct StorylineCandidateAnchor {
    pub anchor_key: String,
    pub user_id: String,
    pub anchor_name: String,
    /// Oldest first.
    pub sources: Vec<SourceBrief>,
}

/// An anchor ready for a Macro, with its active Storylines.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct MacroCandidateAnchor {
    pub anchor_key: String,
    pub user_id: String,
    pub anchor_name: String,
    /// Oldest first.
    pub storylines: Vec<Storyline>,
}

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
pub trait MaintenanceStore: Send + Sync {
    // ---- lifecycle (decay; later access updates, pinning) ----

    /// One page of memories of `kind`, ordered by key, after `after`.
    async fn lifecycle_page(
        &self,
        kind: MemoryKind,
        after: Option<&str>,
        limit: usize,
    ) -> GraphResult<Vec<MemoryLifecycle>>;

    /// Decay's step: the page of `limit` memories of `kind` after `after` (in key order,
    /// as [`lifecycle_page`](Self::lifecycle_page) walks them), each decayed to `as_of`
    /// exactly as [`lifecycle::decay`] decides (pinned ones untouched; `as_of` taken to
    /// the microsecond, as times are stored: [`to_stored_precision`]), written with an
    /// event for each memory archived, in one write transaction: an access or a pin
    /// committed meanwhile is seen or waits, never lost. The same `as_of` again changes
    /// nothing.
    async fn decay_page(
        &self,
        kind: MemoryKind,
        after: Option<&str>,
        limit: usize,
        as_of: DateTime<Utc>,
        params: &LifecycleParams,
    ) -> GraphResult<DecayPage>;

    /// Writes new lifecycles and their events, all in one transaction.
    async fn apply_lifecycle(&self, changes: &[LifecycleChange]) -> GraphResult<()>;

    /// A memory's state changes, oldest first.
    async fn lifecycle_events(&self, memory_key: &str) -> GraphResult<Vec<LifecycleEvent>>;

    // ---- Storylines and Macros ----

    /// Active/core anchors with enough Sources not yet in any of their Storylines, most
    /// mentioned first.
    async fn storyline_promotion_candidates(
        &self,
        rules: &StorylineRules,
        limit: usize,
    ) -> GraphResult<Vec<StorylineCandidateAnchor>>;

    /// Dirty active/core Storylines whose last Source is after `active_since`, biggest first.
    async fn dirty_storylines(
        &self,
        active_since: DateTime<Utc>,
        limit: usize,
    ) -> GraphResult<Vec<Storyline>>;

    /// The latest `limit` Sources of a Storyline, oldest first.
    async fn storyline_briefs(
        &self,
        storyline_id: &str,
        limit: usize,
    ) -> GraphResult<Vec<SourceBrief>>;

    /// New description (and embedding); the Storyline is clean again.
    async fn refresh_storyline(
        &self,
        storyline_id: &str,
        description: &str,
        embedding: Option<&[f32]>,
        at: DateTime<Utc>,
    ) -> GraphResult<()>;

    /// Anchors with at least two active/core Storylines, first mentioned before
    /// `first_before`, without a Macro; most Storylines first.
    async fn macro_promotion_candidates(
        &self,
        first_before: DateTime<Utc>,
        limit: usize,
    ) -> GraphResult<Vec<MacroCandidateAnchor>>;

    /// Dirty active/core Macros, biggest first.
    async fn dirty_macros(&self, limit: usize) -> GraphResult<Vec<Macro>>;

    /// A Macro's Storylines, oldest first.
    async fn macro_storylines(&self, macro_id: &str) -> GraphResult<Vec<Storyline>>;

    /// New overview (and embedding), `storyline_count` recounted; clean again.
    async fn refresh_macro(
        &self,
        macro_id: &str,
        description: &str,
        embedding: Option<&[f32]>,
        at: DateTime<Utc>,
    ) -> GraphResult<()>;

    // ---- consolidation ----

    /// Dirty semantic nodes, most recently accessed first, with their notes.
    async fn dirty_nodes(&self, limit: usize) -> GraphResult<Vec<SemanticNode>>;

    /// Dirty relationships, most recently accessed first, with their notes.
    async fn dirty_relationships(&self, limit: usize) -> GraphResult<Vec<Relationship>>;

    /// New description (the embedding only when given); clean again.
    async fn consolidate_node(
        &self,
        entity_key: &str,
        description: &str,
        embedding: Option<&[f32]>,
        at: DateTime<Utc>,
    ) -> GraphResult<()>;

    async fn consolidate_relationship(
        &self,
        rel_key: &str,
        description: &str,
        notes_embedding: Option<&[f32]>,
        at: DateTime<Utc>,
    ) -> GraphResult<()>;

    /// Removes up to `limit` notes whose `expires_at` is at or before `now`; returns how
    /// many went.
    async fn delete_expired_notes(&self, now: DateTime<Utc>, limit: usize) -> GraphResult<usize>;

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
