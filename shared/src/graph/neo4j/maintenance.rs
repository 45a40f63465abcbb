//! `MaintenanceStore` for [`Neo4jGraph`]: forwards to `lifecycle`, `hierarchy`,
//! `consolidation` and `episodic`.

use async_trait::async_trait;
use chrono::{DateTime, Utc};

use super::Neo4jGraph;
use crate::domain::{
    LifecycleChange, LifecycleEvent, Macro, MemoryKind, MemoryLifecycle, Relationship,
    SemanticNode, SourceBrief, Storyline,
};
use crate::graph::maintenance::{
    ClusterRules, EpisodicConsolidation, MacroCandidateAnchor, MaintenanceStore, SourceCluster,
    StorylineCandidateAnchor, StorylineRules, decay_page_by_parts,
};
use crate::graph::{DecayPage, GraphResult};
use crate::lifecycle::LifecycleParams;

#[async_trait]
impl MaintenanceStore for Neo4jGraph {
    async fn lifecycle_page(
        &self,
        kind: MemoryKind,
        after: Option<&str>,
        limit: usize,
    ) -> GraphResult<Vec<MemoryLifecycle>> {
        self.lifecycle_page_impl(kind, after, limit).await
    }

    async fn decay_page(
        &self,
        kind: MemoryKind,
        after: Option<&str>,
        limit: usize,
        as_of: DateTime<Utc>,
        params: &LifecycleParams,
    ) -> GraphResult<DecayPage> {
        decay_page_by_parts(self, kind, after, limit, as_of, params).await
    }

    async fn apply_lifecycle(&self, changes: &[LifecycleChange]) -> GraphResult<()> {
        self.apply_lifecycle_impl(changes).await
    }

    async fn lifecycle_events(&self, memory_key: &str) -> GraphResult<Vec<LifecycleEvent>> {
        self.lifecycle_events_impl(memory_key).await
    }

    async fn storyline_promotion_candidates(
        &self,
        rules: &StorylineRules,
        limit: usize,
    ) -> GraphResult<Vec<StorylineCandidateAnchor>> {
        self.storyline_promotion_candidates_impl(rules, limit).await
    }

    async fn dirty_storylines(
        &self,
        active_since: DateTime<Utc>,
        limit: usize,
    ) -> GraphResult<Vec<Storyline>> {
        self.dirty_storylines_impl(active_since, limit).await
    }

    async fn storyline_briefs(
        &self,
        storyline_id: &str,
        limit: usize,
    ) -> GraphResult<Vec<SourceBrief>> {
        self.storyline_briefs_impl(storyline_id, limit).await
    }

    async fn refresh_storyline(
        &self,
        id: &str,
        description: &str,
        embedding: Option<&[f32]>,
        at: DateTime<Utc>,
    ) -> GraphResult<()> {
        self.refresh_storyline_impl(id, description, embedding, at)
            .await
    }

    async fn macro_promotion_candidates(
        &self,
        first_before: DateTime<Utc>,
        limit: usize,
    ) -> GraphResult<Vec<MacroCandidateAnchor>> {
        self.macro_promotion_candidates_impl(first_before, limit)
            .await
    }

    async fn dirty_macros(&self, limit: usize) -> GraphResult<Vec<Macro>> {
        self.dirty_macros_impl(limit).await
    }

    async fn macro_storylines(&self, macro_id: &str) -> GraphResult<Vec<Storyline>> {
        self.macro_storylines_impl(macro_id).await
    }

    async fn refresh_macro(
        &self,
        id: &str,
        description: &str,
        embedding: Option<&[f32]>,
        at: DateTime<Utc>,
    ) -> GraphResult<()> {
        self.refresh_macro_impl(id, description, embedding, at)
            .await
    }

    async fn dirty_nodes(&self, limit: usize) -> GraphResult<Vec<SemanticNode>> {
        self.dirty_nodes_impl(limit).await
    }

    async fn dirty_relationships(&self, limit: usize) -> GraphResult<Vec<Relationship>> {
        self.dirty_relationships_impl(limit).await
    }

    async fn consolidate_node(
        &self,
        key: &str,
        description: &str,
        embedding: Option<&[f32]>,
        at: DateTime<Utc>,
    ) -> GraphResult<()> {
        self.consolidate_node_impl(key, description, embedding, at)
            .await
    }

    async fn consolidate_relationship(
        &self,
        key: &str,
        description: &str,
        embedding: Option<&[f32]>,
        at: DateTime<Utc>,
    ) -> GraphResult<()> {
        self.consolidate_relationship_impl(key, description, embedding, at)
            .await
    }

    async fn delete_expired_notes(&self, now: DateTime<Utc>, limit: usize) -> GraphResult<usize> {
        self.delete_expired_notes_impl(now, limit).await
    }

    async fn faded_sources(
        &self,
        older_than: DateTime<Utc>,
        below: f64,
        limit: usize,
    ) -> GraphResult<Vec<(SourceBrief, Vec<String>)>> {
        self.faded_sources_impl(older_than, below, limit).await
    }

    async fn source_clusters(
        &self,
        rules: &ClusterRules,
        limit: usize,
    ) -> GraphResult<Vec<SourceCluster>> {
        self.source_clusters_impl(rules, limit).await
    }

    async fn consolidate_sources(&self, c: &EpisodicConsolidation) -> GraphResult<usize> {
        self.consolidate_sources_impl(c).await
    }

    async fn derived_sources(&self, entity_key: &str) -> GraphResult<Vec<String>> {
        self.derived_sources_impl(entity_key).await
    }
}
