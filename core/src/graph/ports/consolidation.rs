//! Description consolidation of dirty nodes and relationships, and note cleanup.

use async_trait::async_trait;
use chrono::{DateTime, Utc};

use crate::domain::{Relationship, SemanticNode};
use crate::graph::GraphResult;

#[async_trait]
pub trait ConsolidationStore: Send + Sync {
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

    /// How many notes [`delete_expired_notes`](Self::delete_expired_notes) would remove
    /// at `now`, all of them, removing none (cleanup-notes' dry run).
    async fn count_expired_notes(&self, now: DateTime<Utc>) -> GraphResult<u64>;
}
