//! Storylines (meso) and Macros (macro): aggregates over one anchor node.

use chrono::{DateTime, Utc};
use serde::Serialize;

use super::Lifecycle;

#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Storyline {
    pub storyline_id: String,
    pub user_id: String,
    /// The semantic node the Storyline is `about`.
    pub anchor_key: String,
    pub description: String,
    #[serde(skip)]
    pub embedding: Option<Vec<f32>>,
    pub source_count: i64,
    pub first_source_at: Option<DateTime<Utc>>,
    pub last_source_at: Option<DateTime<Utc>>,
    pub is_dirty: bool,
    pub lifecycle: Lifecycle,
}

/// A Storyline to create about an anchor with its first Sources.
#[derive(Debug, Clone, PartialEq)]
pub struct NewStoryline {
    pub storyline_id: String,
    pub user_id: String,
    pub anchor_key: String,
    pub description: String,
    pub embedding: Option<Vec<f32>>,
    pub source_keys: Vec<String>,
    pub at: DateTime<Utc>,
}

#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Macro {
    pub macro_id: String,
    pub user_id: String,
    /// The semantic node the Macro is `rooted_in`.
    pub anchor_key: String,
    pub description: String,
    #[serde(skip)]
    pub embedding: Option<Vec<f32>>,
    pub storyline_count: i64,
    pub total_source_count: i64,
    pub first_event_at: Option<DateTime<Utc>>,
    pub last_event_at: Option<DateTime<Utc>>,
    pub is_dirty: bool,
    pub lifecycle: Lifecycle,
}

/// A Macro grouping Storylines about one anchor.
#[derive(Debug, Clone, PartialEq)]
pub struct NewMacro {
    pub macro_id: String,
    pub user_id: String,
    pub anchor_key: String,
    pub description: String,
    pub embedding: Option<Vec<f32>>,
    pub storyline_ids: Vec<String>,
    pub at: DateTime<Utc>,
}
