//! Promotion and refresh of Storylines and Macros (`promote-storylines`, `promote-macros`).

use async_trait::async_trait;
use chrono::{DateTime, Utc};
use serde::Serialize;

use crate::domain::{Macro, SourceBrief, Storyline};
use crate::graph::GraphResult;

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

#[async_trait]
pub trait HierarchyStore: Send + Sync {
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
}
