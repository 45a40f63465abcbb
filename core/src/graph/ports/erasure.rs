//! Erasure: every trace, in one transaction.

use async_trait::async_trait;
use chrono::{DateTime, Utc};

use crate::domain::Erasure;
use crate::graph::GraphResult;

#[async_trait]
pub trait ErasureStore: Send + Sync {
    /// Deletes a Source and everything whose provenance is only that Source: its
    /// mentions, `includes` and `derived_from` links, extraction records, notes taken
    /// from it, insights consolidated from it, facts stated in it, nodes and
    /// relationships no other Source supports, Storylines and Macros left empty, and the
    /// lifecycle events of all of those. Counters it contributed are recomputed; every
    /// description that drew on it is cleared and marked dirty. `None` if unknown.
    async fn erase_source(
        &self,
        entity_key: &str,
        at: DateTime<Utc>,
    ) -> GraphResult<Option<Erasure>>;

    /// Deletes everything of a user: their Sources (as above), their graph, facts and
    /// events, and their participation in other users' team Sources.
    async fn erase_user(&self, user_id: &str, at: DateTime<Utc>) -> GraphResult<Erasure>;

    /// Deletes a fact and the facts it superseded; a fact that superseded it stays,
    /// without the link. `None` if unknown.
    async fn erase_fact(&self, fact_id: &str) -> GraphResult<Option<Erasure>>;
}
