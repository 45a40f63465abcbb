//! What the read side asks of a graph store (SPEC §5): candidate lists per signal
//! (vector similarity, full-text, graph neighbours) over one kind of memory, scoped to
//! one user, and the small views results are built from. Fusion and ranking happen
//! above the store, in `crate::retrieval`, the same for every backend.

use chrono::{DateTime, Utc};
use serde::{Deserialize, Serialize};

use super::{MemoryState, SourceType, string_enum};

/// The kind of memory a search runs over.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Target {
    Source,
    /// A Person, Concept or Entity.
    Node,
    Storyline,
    Macro,
    Fact,
}

string_enum!(Target {
    Source = "source",
    Node = "node",
    Storyline = "storyline",
    Macro = "macro",
    Fact = "fact",
});

/// Whose memories, in which states, from when. A user sees their own memories and the
/// team Sources they take part in; nothing else, on every signal.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct SearchScope {
    pub user_id: String,
    /// Archived memories are left out unless asked for. Superseded facts are always
    /// left out.
    pub include_archived: bool,
    /// The memory's time (a Source's event time, a node's last mention, a Storyline's
    /// last Source, a Macro's last event, a fact's `valid_from`) at or after this.
    pub since: Option<DateTime<Utc>>,
    /// … and before this.
    pub until: Option<DateTime<Utc>>,
}

impl SearchScope {
    pub fn user(user_id: impl Into<String>) -> Self {
        Self {
            user_id: user_id.into(),
            include_archived: false,
            since: None,
            until: None,
        }
    }
}

/// One candidate of one signal. Higher scores are better; each signal's scores are only
/// comparable with each other (cosine similarity, full-text relevance, link weight).
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Hit {
    pub key: String,
    pub score: f64,
}

/// A graph-signal candidate: the memory, its weight and the seed nodes it is linked to.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Neighbour {
    pub key: String,
    pub score: f64,
    /// Entity keys of the seed nodes it connects to.
    pub via: Vec<String>,
}

/// What a Storyline or an entity lists of its Sources (seed 001 granularity 2: summary,
/// date, context type).
#[derive(Debug, Clone, PartialEq, Serialize, utoipa::ToSchema)]
pub struct SourceMeta {
    pub entity_key: String,
    pub user_id: String,
    pub source_type: SourceType,
    pub context_type: Option<String>,
    pub summary: String,
    /// `started_at`, else when it was ingested.
    pub event_time: DateTime<Utc>,
    pub state: MemoryState,
}

/// Everything a memory was erased together with, for the response and the log.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, utoipa::ToSchema)]
pub struct Erasure {
    pub sources: u64,
    pub nodes: u64,
    pub relationships: u64,
    pub notes: u64,
    pub storylines: u64,
    pub macros: u64,
    pub facts: u64,
    pub events: u64,
    /// Nodes, relationships, Storylines and Macros whose description drew on what was
    /// erased: cleared now and marked dirty, so consolidation rewrites them from what is
    /// left.
    pub descriptions_cleared: u64,
    /// The erased Sources' keys (to drop their queued jobs).
    pub source_keys: Vec<String>,
}
