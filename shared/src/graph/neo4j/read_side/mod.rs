//! The read side on Neo4j: [`ReadStore`], [`FactStore`] and [`ErasureStore`], each method
//! forwarding to the module that owns it:
//!
//! * `search` — the three signals of hybrid retrieval (`cypher/search/`), with
//!   `over_fetch` for the Sources of users with many,
//! * `notes` — note search (`cypher/notes/`), with the Porter stemmer in `porter`,
//! * `views` — Source metadata, a node's Sources and Storylines, links around nodes,
//! * `stats` — a user's memory in numbers (`cypher/stats/`),
//! * `memory` — one memory's lifecycle and atomic read-decide-write updates,
//! * `facts` — fact writes, under a per-user write lock; `fact_reads` — fact reads,
//! * `erasure`, `erase_user`, `deletions` — every trace of a Source, a user or a fact.
//!
//! Behaviour mirrors the SQLite store (`graph/sqlite/`): the same ordering, tie-breaks
//! and scores per signal.

use async_trait::async_trait;
use chrono::{DateTime, Utc};

use super::Neo4jGraph;
use crate::domain::{
    Erasure, Fact, FactExplanation, FactFilter, FactWrite, Hit, LifecycleChange, MemoryKind,
    MemoryLifecycle, MemoryStats, Neighbour, NewFact, NoteHit, Relationship, SearchScope,
    SourceMeta, SourcePassage, Storyline, Target, Weakness,
};
use crate::graph::{ErasureStore, FactStore, GraphResult, LifecycleUpdate, ReadStore};

mod deletions;
mod erase_user;
mod erasure;
mod fact_reads;
pub(super) mod facts;
mod memory;
mod notes;
pub(super) mod over_fetch;
mod porter;
mod search;
mod stats;

pub use over_fetch::SearchPaths;
mod views;

/// Distinct keys, sorted (`UNWIND` rows never repeat a key; locks taken in key order
/// cannot deadlock each other).
fn distinct(keys: &[String]) -> Vec<&str> {
    let mut out: Vec<&str> = keys.iter().map(String::as_str).collect();
    out.sort_unstable();
    out.dedup();
    out
}

/// Distinct keys in the given order, each where it first comes.
fn first_occurrences(keys: &[String]) -> Vec<&str> {
    let mut seen = std::collections::HashSet::new();
    keys.iter()
        .map(String::as_str)
        .filter(|k| seen.insert(*k))
        .collect()
}

#[async_trait]
impl ReadStore for Neo4jGraph {
    async fn vector_search(
        &self,
        scope: &SearchScope,
        target: Target,
        embedding: &[f32],
        limit: usize,
    ) -> GraphResult<Vec<Hit>> {
        self.vector_search_impl(scope, target, embedding, limit)
            .await
    }

    async fn text_search(
        &self,
        scope: &SearchScope,
        target: Target,
        terms: &[String],
        limit: usize,
    ) -> GraphResult<Vec<Hit>> {
        self.text_search_impl(scope, target, terms, limit).await
    }

    async fn neighbours(
        &self,
        scope: &SearchScope,
        target: Target,
        seeds: &[String],
        limit: usize,
    ) -> GraphResult<Vec<Neighbour>> {
        self.neighbours_impl(scope, target, seeds, limit).await
    }

    async fn search_notes(
        &self,
        scope: &SearchScope,
        terms: &[String],
        at: DateTime<Utc>,
        limit: usize,
    ) -> GraphResult<Vec<NoteHit>> {
        self.search_notes_impl(scope, terms, at, limit).await
    }

    async fn passages(&self, source_keys: &[String]) -> GraphResult<Vec<SourcePassage>> {
        self.passages_impl(source_keys).await
    }

    async fn source_metas(&self, keys: &[String]) -> GraphResult<Vec<SourceMeta>> {
        self.source_metas_impl(keys).await
    }

    async fn relationships_of(
        &self,
        user_id: &str,
        node_keys: &[String],
        limit: usize,
    ) -> GraphResult<Vec<Relationship>> {
        self.relationships_of_impl(user_id, node_keys, limit).await
    }

    async fn node_sources(&self, entity_key: &str, limit: usize) -> GraphResult<Vec<SourceMeta>> {
        self.node_sources_impl(entity_key, limit).await
    }

    async fn storylines_about(&self, anchor_key: &str) -> GraphResult<Vec<Storyline>> {
        self.storylines_about_impl(anchor_key).await
    }

    async fn memory_stats(&self, user_id: &str) -> GraphResult<MemoryStats> {
        self.memory_stats_impl(user_id).await
    }

    async fn memory(&self, kind: MemoryKind, key: &str) -> GraphResult<Option<MemoryLifecycle>> {
        self.memory_impl(kind, key).await
    }

    async fn update_lifecycles(
        &self,
        kind: MemoryKind,
        keys: &[String],
        update: &LifecycleUpdate<'_>,
    ) -> GraphResult<Vec<LifecycleChange>> {
        self.update_lifecycles_impl(kind, keys, update).await
    }
}

#[async_trait]
impl FactStore for Neo4jGraph {
    async fn store_fact(&self, fact: &NewFact) -> GraphResult<FactWrite> {
        self.store_fact_impl(fact).await
    }

    async fn correct_fact(&self, fact_id: &str, fact: &NewFact) -> GraphResult<Fact> {
        self.correct_fact_impl(fact_id, fact).await
    }

    async fn confirm_fact(&self, fact_id: &str, at: DateTime<Utc>) -> GraphResult<Fact> {
        self.confirm_fact_impl(fact_id, at).await
    }

    async fn fact(&self, fact_id: &str) -> GraphResult<Option<Fact>> {
        self.fact_impl(fact_id).await
    }

    async fn facts_for_user(
        &self,
        user_id: &str,
        filter: FactFilter,
        limit: usize,
    ) -> GraphResult<Vec<Fact>> {
        self.facts_for_user_impl(user_id, filter, limit).await
    }

    async fn explain_fact(&self, fact_id: &str) -> GraphResult<Option<FactExplanation>> {
        self.explain_fact_impl(fact_id).await
    }

    async fn weak_facts(
        &self,
        user_id: &str,
        weakness: Weakness,
        limit: usize,
    ) -> GraphResult<Vec<Fact>> {
        self.weak_facts_impl(user_id, weakness, limit).await
    }
}

#[async_trait]
impl ErasureStore for Neo4jGraph {
    async fn erase_source(
        &self,
        entity_key: &str,
        at: DateTime<Utc>,
    ) -> GraphResult<Option<Erasure>> {
        self.erase_source_impl(entity_key, at).await
    }

    async fn erase_user(&self, user_id: &str, at: DateTime<Utc>) -> GraphResult<Erasure> {
        self.erase_user_impl(user_id, at).await
    }

    async fn erase_fact(&self, fact_id: &str) -> GraphResult<Option<Erasure>> {
        self.erase_fact_impl(fact_id).await
    }
}
