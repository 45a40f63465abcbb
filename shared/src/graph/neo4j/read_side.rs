//! PLACEHOLDER (being replaced in the `neo4j-read` branch): the read-side traits on
//! Neo4j. Every method fails with a clear error until then.

use async_trait::async_trait;
use chrono::{DateTime, Utc};

use super::Neo4jGraph;
use crate::domain::{
    Erasure, Fact, FactExplanation, FactFilter, FactWrite, Hit, LifecycleChange, MemoryKind,
    MemoryLifecycle, Neighbour, NewFact, Relationship, SearchScope, SourceMeta, Storyline, Target,
    Weakness,
};
use crate::graph::{ErasureStore, FactStore, GraphError, GraphResult, LifecycleUpdate, ReadStore};

fn pending<T>() -> GraphResult<T> {
    Err(GraphError::Backend(anyhow::anyhow!(
        "the read side is not implemented on Neo4j yet"
    )))
}

#[async_trait]
impl ReadStore for Neo4jGraph {
    async fn vector_search(
        &self,
        _: &SearchScope,
        _: Target,
        _: &[f32],
        _: usize,
    ) -> GraphResult<Vec<Hit>> {
        pending()
    }
    async fn text_search(
        &self,
        _: &SearchScope,
        _: Target,
        _: &[String],
        _: usize,
    ) -> GraphResult<Vec<Hit>> {
        pending()
    }
    async fn neighbours(
        &self,
        _: &SearchScope,
        _: Target,
        _: &[String],
        _: usize,
    ) -> GraphResult<Vec<Neighbour>> {
        pending()
    }
    async fn source_metas(&self, _: &[String]) -> GraphResult<Vec<SourceMeta>> {
        pending()
    }
    async fn relationships_of(
        &self,
        _: &str,
        _: &[String],
        _: usize,
    ) -> GraphResult<Vec<Relationship>> {
        pending()
    }
    async fn node_sources(&self, _: &str, _: usize) -> GraphResult<Vec<SourceMeta>> {
        pending()
    }
    async fn storylines_about(&self, _: &str) -> GraphResult<Vec<Storyline>> {
        pending()
    }
    async fn memory(&self, _: MemoryKind, _: &str) -> GraphResult<Option<MemoryLifecycle>> {
        pending()
    }
    async fn update_lifecycles(
        &self,
        _: MemoryKind,
        _: &[String],
        _: &LifecycleUpdate<'_>,
    ) -> GraphResult<Vec<LifecycleChange>> {
        pending()
    }
}

#[async_trait]
impl FactStore for Neo4jGraph {
    async fn store_fact(&self, _: &NewFact) -> GraphResult<FactWrite> {
        pending()
    }
    async fn correct_fact(&self, _: &str, _: &NewFact) -> GraphResult<Fact> {
        pending()
    }
    async fn confirm_fact(&self, _: &str, _: DateTime<Utc>) -> GraphResult<Fact> {
        pending()
    }
    async fn fact(&self, _: &str) -> GraphResult<Option<Fact>> {
        pending()
    }
    async fn facts_for_user(&self, _: &str, _: FactFilter, _: usize) -> GraphResult<Vec<Fact>> {
        pending()
    }
    async fn explain_fact(&self, _: &str) -> GraphResult<Option<FactExplanation>> {
        pending()
    }
    async fn weak_facts(&self, _: &str, _: Weakness, _: usize) -> GraphResult<Vec<Fact>> {
        pending()
    }
}

#[async_trait]
impl ErasureStore for Neo4jGraph {
    async fn erase_source(&self, _: &str, _: DateTime<Utc>) -> GraphResult<Option<Erasure>> {
        pending()
    }
    async fn erase_user(&self, _: &str, _: DateTime<Utc>) -> GraphResult<Erasure> {
        pending()
    }
    async fn erase_fact(&self, _: &str) -> GraphResult<Option<Erasure>> {
        pending()
    }
}
