//! Any memory with a lifecycle (Source, semantic node, relationship, Storyline, Macro,
//! fact),
//! addressed by kind and key, and the lifecycle event log.

use chrono::{DateTime, Utc};
use serde::{Deserialize, Serialize};

use super::{Lifecycle, MemoryState, string_enum};
use crate::lifecycle::{MemoryClass, Reason};

/// What kind of memory a key names.
#[derive(
    Debug,
    Clone,
    Copy,
    PartialEq,
    Eq,
    Hash,
    PartialOrd,
    Ord,
    Serialize,
    Deserialize,
    utoipa::ToSchema,
)]
#[serde(rename_all = "snake_case")]
pub enum MemoryKind {
    Source,
    /// A Person, Concept or Entity.
    Node,
    Relationship,
    Storyline,
    Macro,
    /// A fact a user stated.
    Fact,
}

string_enum!(MemoryKind {
    Source = "source",
    Node = "node",
    Relationship = "relationship",
    Storyline = "storyline",
    Macro = "macro",
    Fact = "fact",
});

impl MemoryKind {
    /// Sources are episodic; everything else is semantic (for `ephemeral` deadlines).
    pub fn class(self) -> MemoryClass {
        match self {
            Self::Source => MemoryClass::Episodic,
            _ => MemoryClass::Semantic,
        }
    }
}

/// One memory's lifecycle, as decay reads it.
#[derive(Debug, Clone, PartialEq, Serialize, utoipa::ToSchema)]
pub struct MemoryLifecycle {
    pub kind: MemoryKind,
    pub key: String,
    #[serde(serialize_with = "crate::ids::serialize_user_id")]
    pub user_id: String,
    pub lifecycle: Lifecycle,
}

/// Who caused a state change.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, utoipa::ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum Actor {
    System,
    User,
}

string_enum!(Actor { System = "system", User = "user" });

/// One entry of the lifecycle event log.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, utoipa::ToSchema)]
pub struct LifecycleEvent {
    pub memory_kind: MemoryKind,
    pub memory_key: String,
    #[serde(serialize_with = "crate::ids::serialize_user_id")]
    pub user_id: String,
    pub previous_state: MemoryState,
    pub new_state: MemoryState,
    /// e.g. `decayed`, `ttl_expired`, `accessed`, `consolidated`, `pinned`.
    pub reason: String,
    pub actor: Actor,
    pub at: DateTime<Utc>,
}

impl LifecycleEvent {
    pub fn system(m: &MemoryLifecycle, to: MemoryState, reason: Reason, at: DateTime<Utc>) -> Self {
        Self {
            memory_kind: m.kind,
            memory_key: m.key.clone(),
            user_id: m.user_id.clone(),
            previous_state: m.lifecycle.state,
            new_state: to,
            reason: serde_json::to_value(reason)
                .ok()
                .and_then(|v| v.as_str().map(str::to_owned))
                .unwrap_or_default(),
            actor: Actor::System,
            at,
        }
    }
}

/// A memory's new lifecycle, and the event if its state changed. Applied in batches.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct LifecycleChange {
    pub kind: MemoryKind,
    pub key: String,
    pub lifecycle: Lifecycle,
    pub event: Option<LifecycleEvent>,
}

/// What a Storyline or consolidation needs of a Source.
#[derive(Debug, Clone, PartialEq, Serialize, utoipa::ToSchema)]
pub struct SourceBrief {
    pub entity_key: String,
    #[serde(serialize_with = "crate::ids::serialize_user_id")]
    pub user_id: String,
    pub summary: String,
    pub event_time: DateTime<Utc>,
}
