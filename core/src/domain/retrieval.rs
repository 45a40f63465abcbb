//! What the read side asks of a graph store: candidate lists per signal (vector
//! similarity, full-text, graph neighbours) over one kind of memory, scoped to one user,
//! and the small views results are built from. Fusion and ranking happen above the store,
//! in `cosmo_pipeline::retrieval`, the same for every backend.

use chrono::{DateTime, Utc};
use serde::{Deserialize, Serialize};

use super::{MemoryKind, MemoryState, SourceType, string_enum};

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
    /// Vector signal over Sources: the passage that scored best (its ordinal), or `None`
    /// when the summary did.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub passage: Option<u32>,
}

/// A graph-signal candidate: the memory, its weight and the seed nodes it is linked to.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Neighbour {
    pub key: String,
    pub score: f64,
    /// Entity keys of the seed nodes it connects to.
    pub via: Vec<String>,
}

/// A note on one of the user's nodes or relationships that matched a note search
/// ([`crate::graph::NoteSearchStore::search_notes`]): an extraction's note (with the Source
/// it was taken from) or a consolidation insight (with the Sources it was derived from).
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct NoteHit {
    pub note_id: String,
    pub text: String,
    /// [`MemoryKind::Node`] or [`MemoryKind::Relationship`].
    pub owner_kind: MemoryKind,
    /// The node's entity key or the relationship's `rel_key`.
    pub owner_key: String,
    /// The node's display name; for a relationship `From —type→ To`
    /// ([`relationship_label`]).
    pub owner: String,
    /// The entity keys of the nodes the note is about: the node, or the relationship's
    /// two ends (from, to).
    pub about: Vec<String>,
    /// The Source the note was taken from; `None` for a consolidation insight.
    pub source_id: Option<String>,
    pub date_added: DateTime<Utc>,
    /// When it was said ([`crate::domain::Note::said_at`]).
    pub said_at: DateTime<Utc>,
    /// The extracting user, or `cosmo` for a consolidation insight.
    pub added_by: String,
    /// Full-text relevance, higher is better; comparable only within one result list
    /// of one backend.
    pub score: f64,
    /// An insight's provenance: the keys of the Sources it was derived from (its
    /// `derived_from` links), sorted; empty for an extraction's note.
    pub derived_from: Vec<String>,
}

impl NoteHit {
    /// A consolidation insight rather than a note an extraction took from one Source.
    pub fn is_insight(&self) -> bool {
        self.source_id.is_none()
    }
}

/// How a relationship is named where a note on it is shown: `From —type→ To`.
pub fn relationship_label(from: &str, relationship_type: &str, to: &str) -> String {
    format!("{from} —{relationship_type}→ {to}")
}

/// What a Storyline or an entity lists of its Sources: summary, date and context type,
/// not the content.
#[derive(Debug, Clone, PartialEq, Serialize, utoipa::ToSchema)]
pub struct SourceMeta {
    pub entity_key: String,
    #[serde(serialize_with = "crate::ids::serialize_user_id")]
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
