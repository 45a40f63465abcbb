//! Storylines (a user's Sources about one anchor) and Macros (an anchor's Storylines).

use async_trait::async_trait;
use chrono::{DateTime, Utc};
use serde::Serialize;

use crate::domain::{Macro, NewMacro, NewStoryline, NodeIdentity, Storyline};
use crate::graph::GraphResult;

/// A Storyline that a new Source about `anchor` could join.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct StorylineCandidate {
    pub anchor: NodeIdentity,
    pub storyline: Storyline,
}

#[async_trait]
pub trait StorylineStore: Send + Sync {
    /// Active/core Storylines about any of `anchors` whose last Source is after `since`.
    async fn storyline_candidates(
        &self,
        user_id: &str,
        anchors: &[NodeIdentity],
        since: DateTime<Utc>,
    ) -> GraphResult<Vec<StorylineCandidate>>;

    /// Creates a Storyline about an anchor including the given Sources; sets the
    /// anchor's `has_meso`. Idempotent by `storyline_id`.
    async fn create_storyline(&self, storyline: &NewStoryline) -> GraphResult<Storyline>;

    async fn storyline(&self, storyline_id: &str) -> GraphResult<Option<Storyline>>;

    /// Entity keys of the Sources a Storyline includes, sorted.
    async fn storyline_sources(&self, storyline_id: &str) -> GraphResult<Vec<String>>;

    async fn storylines_for_user(&self, user_id: &str) -> GraphResult<Vec<Storyline>>;

    /// Creates a Macro rooted in an anchor grouping the given Storylines; sets the
    /// anchor's `has_macro`. Idempotent by `macro_id`.
    async fn create_macro(&self, new: &NewMacro) -> GraphResult<Macro>;

    async fn macro_by_id(&self, macro_id: &str) -> GraphResult<Option<Macro>>;
}
