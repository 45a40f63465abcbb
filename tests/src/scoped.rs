//! A graph store seen through one test's key space. Tests sharing a server (Neo4j) each
//! use user ids with their own suffix. The operations scoped by neither a key nor a user
//! are the global scans — the reconciler's (`stuck_sources`, `stuck_extractions`,
//! `stale_index`), the maintenance jobs' (promotion candidates, dirty Storylines, Macros,
//! nodes and relationships, faded Sources, clusters) and the causal job's
//! (`causal_candidates`): their results are filtered to the suffix here (the store asked
//! for everything, then `limit` of ours kept), so every case sees what it would on a
//! store of its own. Everything else is forwarded unchanged, port by port.

use std::sync::Arc;

use async_trait::async_trait;
use chrono::{DateTime, Utc};
use cosmo_shared::domain::*;
use cosmo_shared::graph::*;

/// Enough to see every stuck item on a test server.
const EVERYTHING: usize = 100_000;

#[derive(Debug)]
pub struct ScopedGraph {
    inner: Arc<dyn GraphStore>,
    suffix: String,
}

impl ScopedGraph {
    pub fn new(inner: Arc<dyn GraphStore>, suffix: String) -> Self {
        Self { inner, suffix }
    }

    /// The items of this key space, in the inner order, at most `limit`.
    fn own<T>(&self, all: Vec<T>, user: impl Fn(&T) -> &String, limit: usize) -> Vec<T> {
        all.into_iter()
            .filter(|x| user(x).ends_with(&self.suffix))
            .take(limit)
            .collect()
    }
}

#[async_trait]
impl StoreAdmin for ScopedGraph {
    fn backend(&self) -> &'static str {
        self.inner.backend()
    }

    async fn migrate(&self) -> GraphResult<()> {
        self.inner.migrate().await
    }

    async fn ping(&self) -> GraphResult<()> {
        self.inner.ping().await
    }
}

#[async_trait]
impl SourceStore for ScopedGraph {
    async fn create_source(&self, source: &NewSource) -> GraphResult<SourceWrite> {
        self.inner.create_source(source).await
    }

    async fn source(&self, entity_key: &str) -> GraphResult<Option<Source>> {
        self.inner.source(entity_key).await
    }

    async fn sources_for_user(
        &self,
        user_id: &str,
        after: Option<&str>,
        limit: usize,
    ) -> GraphResult<Vec<Source>> {
        self.inner.sources_for_user(user_id, after, limit).await
    }

    async fn mark_processing_started(
        &self,
        entity_key: &str,
        at: DateTime<Utc>,
    ) -> GraphResult<()> {
        self.inner.mark_processing_started(entity_key, at).await
    }

    async fn save_processed(
        &self,
        entity_key: &str,
        p: &ProcessedContent,
        at: DateTime<Utc>,
    ) -> GraphResult<bool> {
        self.inner.save_processed(entity_key, p, at).await
    }

    async fn save_index(
        &self,
        entity_key: &str,
        embedding: &[f32],
        passages: &[Passage],
        embedded_with: &str,
        at: DateTime<Utc>,
    ) -> GraphResult<bool> {
        self.inner
            .save_index(entity_key, embedding, passages, embedded_with, at)
            .await
    }

    async fn record_processing_error(
        &self,
        entity_key: &str,
        error: Option<&str>,
        at: DateTime<Utc>,
    ) -> GraphResult<()> {
        self.inner
            .record_processing_error(entity_key, error, at)
            .await
    }

    async fn stuck_sources(
        &self,
        before: DateTime<Utc>,
        limit: usize,
    ) -> GraphResult<Vec<SourceRef>> {
        let all = self.inner.stuck_sources(before, EVERYTHING).await?;
        Ok(self.own(all, |s| &s.user_id, limit))
    }

    async fn stale_index(&self, embedded_with: &str, limit: usize) -> GraphResult<Vec<SourceRef>> {
        let all = self.inner.stale_index(embedded_with, EVERYTHING).await?;
        Ok(self.own(all, |s| &s.user_id, limit))
    }
}

#[async_trait]
impl ExtractionRecordStore for ScopedGraph {
    async fn request_extraction(
        &self,
        source_key: &str,
        user_id: &str,
        at: DateTime<Utc>,
    ) -> GraphResult<ExtractionRecord> {
        self.inner.request_extraction(source_key, user_id, at).await
    }

    async fn extraction(
        &self,
        source_key: &str,
        user_id: &str,
    ) -> GraphResult<Option<ExtractionRecord>> {
        self.inner.extraction(source_key, user_id).await
    }

    async fn extractions(&self, source_key: &str) -> GraphResult<Vec<ExtractionRecord>> {
        self.inner.extractions(source_key).await
    }

    async fn mark_extraction_started(
        &self,
        source_key: &str,
        user_id: &str,
        at: DateTime<Utc>,
    ) -> GraphResult<()> {
        self.inner
            .mark_extraction_started(source_key, user_id, at)
            .await
    }

    async fn record_extraction_error(
        &self,
        source_key: &str,
        user_id: &str,
        error: &str,
        gave_up: bool,
        at: DateTime<Utc>,
    ) -> GraphResult<()> {
        self.inner
            .record_extraction_error(source_key, user_id, error, gave_up, at)
            .await
    }

    async fn stuck_extractions(
        &self,
        before: DateTime<Utc>,
        limit: usize,
    ) -> GraphResult<Vec<ExtractionRecord>> {
        let all = self.inner.stuck_extractions(before, EVERYTHING).await?;
        Ok(self.own(all, |e| &e.user_id, limit))
    }
}

#[async_trait]
impl ExtractionStore for ScopedGraph {
    async fn write_extraction(&self, write: &ExtractionWrite) -> GraphResult<ExtractionOutcome> {
        self.inner.write_extraction(write).await
    }
}

#[async_trait]
impl SemanticStore for ScopedGraph {
    async fn upsert_owner(
        &self,
        user_id: &str,
        full_name: &str,
        at: DateTime<Utc>,
    ) -> GraphResult<SemanticNode> {
        self.inner.upsert_owner(user_id, full_name, at).await
    }

    async fn owner(&self, user_id: &str) -> GraphResult<Option<SemanticNode>> {
        self.inner.owner(user_id).await
    }

    async fn node(&self, entity_key: &str) -> GraphResult<Option<SemanticNode>> {
        self.inner.node(entity_key).await
    }

    async fn nodes_for_user(
        &self,
        user_id: &str,
        after: Option<&str>,
        limit: usize,
    ) -> GraphResult<Vec<SemanticNode>> {
        self.inner.nodes_for_user(user_id, after, limit).await
    }

    async fn relationships_for_user(
        &self,
        user_id: &str,
        after: Option<&str>,
        limit: usize,
    ) -> GraphResult<Vec<Relationship>> {
        self.inner
            .relationships_for_user(user_id, after, limit)
            .await
    }

    async fn mentions_for_user(&self, user_id: &str) -> GraphResult<Vec<Mention>> {
        self.inner.mentions_for_user(user_id).await
    }
}

#[async_trait]
impl StorylineStore for ScopedGraph {
    async fn storyline_candidates(
        &self,
        user_id: &str,
        anchors: &[NodeIdentity],
        since: DateTime<Utc>,
    ) -> GraphResult<Vec<StorylineCandidate>> {
        self.inner
            .storyline_candidates(user_id, anchors, since)
            .await
    }

    async fn create_storyline(&self, storyline: &NewStoryline) -> GraphResult<Storyline> {
        self.inner.create_storyline(storyline).await
    }

    async fn storyline(&self, storyline_id: &str) -> GraphResult<Option<Storyline>> {
        self.inner.storyline(storyline_id).await
    }

    async fn storyline_sources(&self, storyline_id: &str) -> GraphResult<Vec<String>> {
        self.inner.storyline_sources(storyline_id).await
    }

    async fn storylines_for_user(&self, user_id: &str) -> GraphResult<Vec<Storyline>> {
        self.inner.storylines_for_user(user_id).await
    }

    async fn create_macro(&self, new: &NewMacro) -> GraphResult<Macro> {
        self.inner.create_macro(new).await
    }

    async fn macro_by_id(&self, macro_id: &str) -> GraphResult<Option<Macro>> {
        self.inner.macro_by_id(macro_id).await
    }
}

#[async_trait]
impl LifecycleStore for ScopedGraph {
    async fn lifecycle_page(
        &self,
        kind: MemoryKind,
        after: Option<&str>,
        limit: usize,
    ) -> GraphResult<Vec<MemoryLifecycle>> {
        let mut out = Vec::new();
        let mut cursor = after.map(str::to_owned);
        loop {
            let page = self
                .inner
                .lifecycle_page(kind, cursor.as_deref(), limit.max(1))
                .await?;
            let Some(last) = page.last() else {
                return Ok(out);
            };
            cursor = Some(last.key.clone());
            let full = page.len() < limit.max(1);
            out.extend(
                page.into_iter()
                    .filter(|m| m.user_id.ends_with(&self.suffix)),
            );
            if out.len() >= limit || full {
                out.truncate(limit);
                return Ok(out);
            }
        }
    }

    /// The shared store's decay would decay every test's memories: this key space's
    /// alone are decayed, by the generic parts (its pages hold only its own memories).
    async fn apply_lifecycle(&self, changes: &[LifecycleChange]) -> GraphResult<()> {
        self.inner.apply_lifecycle(changes).await
    }

    async fn lifecycle_events(&self, memory_key: &str) -> GraphResult<Vec<LifecycleEvent>> {
        self.inner.lifecycle_events(memory_key).await
    }

    async fn memory(&self, kind: MemoryKind, key: &str) -> GraphResult<Option<MemoryLifecycle>> {
        self.inner.memory(kind, key).await
    }

    async fn update_lifecycles(
        &self,
        kind: MemoryKind,
        keys: &[String],
        update: &LifecycleUpdate<'_>,
    ) -> GraphResult<Vec<LifecycleChange>> {
        self.inner.update_lifecycles(kind, keys, update).await
    }
}

#[async_trait]
impl HierarchyStore for ScopedGraph {
    async fn storyline_promotion_candidates(
        &self,
        rules: &StorylineRules,
        limit: usize,
    ) -> GraphResult<Vec<StorylineCandidateAnchor>> {
        let all = self
            .inner
            .storyline_promotion_candidates(rules, EVERYTHING)
            .await?;
        Ok(self.own(all, |c| &c.user_id, limit))
    }

    async fn dirty_storylines(
        &self,
        active_since: DateTime<Utc>,
        limit: usize,
    ) -> GraphResult<Vec<Storyline>> {
        let all = self
            .inner
            .dirty_storylines(active_since, EVERYTHING)
            .await?;
        Ok(self.own(all, |s| &s.user_id, limit))
    }

    async fn storyline_briefs(
        &self,
        storyline_id: &str,
        limit: usize,
    ) -> GraphResult<Vec<SourceBrief>> {
        self.inner.storyline_briefs(storyline_id, limit).await
    }

    async fn refresh_storyline(
        &self,
        id: &str,
        d: &str,
        e: Option<&[f32]>,
        at: DateTime<Utc>,
    ) -> GraphResult<()> {
        self.inner.refresh_storyline(id, d, e, at).await
    }

    async fn macro_promotion_candidates(
        &self,
        first_before: DateTime<Utc>,
        limit: usize,
    ) -> GraphResult<Vec<MacroCandidateAnchor>> {
        let all = self
            .inner
            .macro_promotion_candidates(first_before, EVERYTHING)
            .await?;
        Ok(self.own(all, |c| &c.user_id, limit))
    }

    async fn dirty_macros(&self, limit: usize) -> GraphResult<Vec<Macro>> {
        let all = self.inner.dirty_macros(EVERYTHING).await?;
        Ok(self.own(all, |m| &m.user_id, limit))
    }

    async fn macro_storylines(&self, macro_id: &str) -> GraphResult<Vec<Storyline>> {
        self.inner.macro_storylines(macro_id).await
    }

    async fn refresh_macro(
        &self,
        id: &str,
        d: &str,
        e: Option<&[f32]>,
        at: DateTime<Utc>,
    ) -> GraphResult<()> {
        self.inner.refresh_macro(id, d, e, at).await
    }
}

#[async_trait]
impl ConsolidationStore for ScopedGraph {
    async fn dirty_nodes(&self, limit: usize) -> GraphResult<Vec<SemanticNode>> {
        let all = self.inner.dirty_nodes(EVERYTHING).await?;
        Ok(self.own(all, |n| &n.user_id, limit))
    }

    async fn dirty_relationships(&self, limit: usize) -> GraphResult<Vec<Relationship>> {
        let all = self.inner.dirty_relationships(EVERYTHING).await?;
        Ok(self.own(all, |r| &r.user_id, limit))
    }

    async fn consolidate_node(
        &self,
        key: &str,
        d: &str,
        e: Option<&[f32]>,
        at: DateTime<Utc>,
    ) -> GraphResult<()> {
        self.inner.consolidate_node(key, d, e, at).await
    }

    async fn consolidate_relationship(
        &self,
        key: &str,
        d: &str,
        e: Option<&[f32]>,
        at: DateTime<Utc>,
    ) -> GraphResult<()> {
        self.inner.consolidate_relationship(key, d, e, at).await
    }

    /// Deletes across the server: expired notes are expired for every test alike.
    async fn delete_expired_notes(&self, now: DateTime<Utc>, limit: usize) -> GraphResult<usize> {
        self.inner.delete_expired_notes(now, limit).await
    }
}

#[async_trait]
impl EpisodicStore for ScopedGraph {
    async fn faded_sources(
        &self,
        older_than: DateTime<Utc>,
        below: f64,
        limit: usize,
    ) -> GraphResult<Vec<(SourceBrief, Vec<String>)>> {
        let all = self
            .inner
            .faded_sources(older_than, below, EVERYTHING)
            .await?;
        Ok(self.own(all, |(s, _)| &s.user_id, limit))
    }

    async fn source_clusters(
        &self,
        rules: &ClusterRules,
        limit: usize,
    ) -> GraphResult<Vec<SourceCluster>> {
        let all = self.inner.source_clusters(rules, EVERYTHING).await?;
        Ok(self.own(all, |c| &c.user_id, limit))
    }

    async fn consolidate_sources(&self, c: &EpisodicConsolidation) -> GraphResult<usize> {
        self.inner.consolidate_sources(c).await
    }

    async fn derived_sources(&self, entity_key: &str) -> GraphResult<Vec<String>> {
        self.inner.derived_sources(entity_key).await
    }
}

#[async_trait]
impl SearchStore for ScopedGraph {
    async fn vector_search(
        &self,
        scope: &SearchScope,
        target: Target,
        embedding: &[f32],
        limit: usize,
    ) -> GraphResult<Vec<Hit>> {
        self.inner
            .vector_search(scope, target, embedding, limit)
            .await
    }

    async fn text_search(
        &self,
        scope: &SearchScope,
        target: Target,
        terms: &[String],
        limit: usize,
    ) -> GraphResult<Vec<Hit>> {
        self.inner.text_search(scope, target, terms, limit).await
    }

    async fn neighbours(
        &self,
        scope: &SearchScope,
        target: Target,
        seeds: &[String],
        limit: usize,
    ) -> GraphResult<Vec<Neighbour>> {
        self.inner.neighbours(scope, target, seeds, limit).await
    }
}

#[async_trait]
impl NoteSearchStore for ScopedGraph {
    async fn search_notes(
        &self,
        scope: &SearchScope,
        terms: &[String],
        at: DateTime<Utc>,
        limit: usize,
    ) -> GraphResult<Vec<NoteHit>> {
        self.inner.search_notes(scope, terms, at, limit).await
    }
}

#[async_trait]
impl ViewStore for ScopedGraph {
    async fn passages(&self, source_keys: &[String]) -> GraphResult<Vec<SourcePassage>> {
        self.inner.passages(source_keys).await
    }

    async fn source_metas(&self, keys: &[String]) -> GraphResult<Vec<SourceMeta>> {
        self.inner.source_metas(keys).await
    }

    async fn relationships_of(
        &self,
        user_id: &str,
        node_keys: &[String],
        limit: usize,
    ) -> GraphResult<Vec<Relationship>> {
        self.inner.relationships_of(user_id, node_keys, limit).await
    }

    async fn node_sources(&self, entity_key: &str, limit: usize) -> GraphResult<Vec<SourceMeta>> {
        self.inner.node_sources(entity_key, limit).await
    }

    async fn storylines_about(&self, anchor_key: &str) -> GraphResult<Vec<Storyline>> {
        self.inner.storylines_about(anchor_key).await
    }
}

#[async_trait]
impl StatsStore for ScopedGraph {
    async fn memory_stats(&self, user_id: &str) -> GraphResult<MemoryStats> {
        self.inner.memory_stats(user_id).await
    }
}

#[async_trait]
impl FactStore for ScopedGraph {
    async fn store_fact(&self, fact: &NewFact) -> GraphResult<FactWrite> {
        self.inner.store_fact(fact).await
    }

    async fn correct_fact(&self, fact_id: &str, fact: &NewFact) -> GraphResult<Fact> {
        self.inner.correct_fact(fact_id, fact).await
    }

    async fn confirm_fact(&self, fact_id: &str, at: DateTime<Utc>) -> GraphResult<Fact> {
        self.inner.confirm_fact(fact_id, at).await
    }
}

#[async_trait]
impl FactReadStore for ScopedGraph {
    async fn fact(&self, fact_id: &str) -> GraphResult<Option<Fact>> {
        self.inner.fact(fact_id).await
    }

    async fn facts_for_user(
        &self,
        user_id: &str,
        filter: FactFilter,
        limit: usize,
    ) -> GraphResult<Vec<Fact>> {
        self.inner.facts_for_user(user_id, filter, limit).await
    }

    async fn explain_fact(&self, fact_id: &str) -> GraphResult<Option<FactExplanation>> {
        self.inner.explain_fact(fact_id).await
    }

    async fn weak_facts(
        &self,
        user_id: &str,
        weakness: Weakness,
        limit: usize,
    ) -> GraphResult<Vec<Fact>> {
        self.inner.weak_facts(user_id, weakness, limit).await
    }
}

#[async_trait]
impl ErasureStore for ScopedGraph {
    async fn erase_source(
        &self,
        entity_key: &str,
        at: DateTime<Utc>,
    ) -> GraphResult<Option<Erasure>> {
        self.inner.erase_source(entity_key, at).await
    }

    async fn erase_user(&self, user_id: &str, at: DateTime<Utc>) -> GraphResult<Erasure> {
        self.inner.erase_user(user_id, at).await
    }

    async fn erase_fact(&self, fact_id: &str) -> GraphResult<Option<Erasure>> {
        self.inner.erase_fact(fact_id).await
    }
}

#[async_trait]
impl LinkStore for ScopedGraph {
    async fn link_temporal(
        &self,
        entity_key: &str,
        thread_key: &str,
        at: DateTime<Utc>,
    ) -> GraphResult<bool> {
        self.inner.link_temporal(entity_key, thread_key, at).await
    }

    async fn causal_candidates(
        &self,
        after: Option<&str>,
        window: usize,
        limit: usize,
    ) -> GraphResult<Vec<CausalCandidate>> {
        let all = self
            .inner
            .causal_candidates(after, window, EVERYTHING)
            .await?;
        Ok(self.own(all, |c| &c.user_id, limit))
    }

    async fn save_causal(
        &self,
        effect_key: &str,
        links: &[NewCausalLink],
        at: DateTime<Utc>,
    ) -> GraphResult<u64> {
        self.inner.save_causal(effect_key, links, at).await
    }

    async fn source_links(&self, keys: &[String]) -> GraphResult<Vec<SourceLink>> {
        self.inner.source_links(keys).await
    }
}

impl DecayStore for ScopedGraph {}
