//! A user's semantic graph as extracted: nodes, relationships, mentions, and the owner Person.

use async_trait::async_trait;
use chrono::{DateTime, Utc};

use crate::domain::{Mention, Relationship, SemanticNode};
use crate::graph::GraphResult;

#[async_trait]
pub trait SemanticStore: Send + Sync {
    /// Creates or renames the user's owner Person from the profile's full name. If a
    /// Person with that canonical name was already extracted, it becomes the owner.
    async fn upsert_owner(
        &self,
        user_id: &str,
        full_name: &str,
        at: DateTime<Utc>,
    ) -> GraphResult<SemanticNode>;

    async fn owner(&self, user_id: &str) -> GraphResult<Option<SemanticNode>>;

    async fn node(&self, entity_key: &str) -> GraphResult<Option<SemanticNode>>;

    /// A user's semantic nodes with their notes, ordered by entity key, after `after`.
    async fn nodes_for_user(
        &self,
        user_id: &str,
        after: Option<&str>,
        limit: usize,
    ) -> GraphResult<Vec<SemanticNode>>;

    /// A user's semantic relationships with their notes, ordered by key, after `after`.
    async fn relationships_for_user(
        &self,
        user_id: &str,
        after: Option<&str>,
        limit: usize,
    ) -> GraphResult<Vec<Relationship>>;

    /// The `mentions` links a user's extractions created, ordered.
    async fn mentions_for_user(&self, user_id: &str) -> GraphResult<Vec<Mention>>;
}
