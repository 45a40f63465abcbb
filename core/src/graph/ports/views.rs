//! The views results are built from: Source metadata and passages, a node's Sources,
//! Storylines and relationships.

use async_trait::async_trait;

use crate::domain::{Relationship, SourceMeta, SourcePassage, Storyline};
use crate::graph::GraphResult;

#[async_trait]
pub trait ViewStore: Send + Sync {
    /// The passages of these Sources (unknown keys are skipped), by Source in the given
    /// order, each Source's in content order.
    async fn passages(&self, source_keys: &[String]) -> GraphResult<Vec<SourcePassage>>;

    /// The metadata of these Sources (unknown keys are skipped), in the given order.
    async fn source_metas(&self, keys: &[String]) -> GraphResult<Vec<SourceMeta>>;

    /// `user_id`'s relationships touching any of `node_keys`, strongest first.
    async fn relationships_of(
        &self,
        user_id: &str,
        node_keys: &[String],
        limit: usize,
    ) -> GraphResult<Vec<Relationship>>;

    /// The Sources mentioning a node, newest first.
    async fn node_sources(&self, entity_key: &str, limit: usize) -> GraphResult<Vec<SourceMeta>>;

    /// The Storylines about a node, newest first.
    async fn storylines_about(&self, anchor_key: &str) -> GraphResult<Vec<Storyline>>;
}
