//! Per-(Source, user) extraction: its recorded state and the write that Phase 2 applies
//! to the graph in one transaction.

use chrono::{DateTime, Utc};
use serde::{Deserialize, Serialize};

use super::{NodeIdentity, NoteLifetime, string_enum};

/// The state of one user's extraction of one Source.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize, utoipa::ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum ExtractionStatus {
    /// Asked for (owner after processing, participant on first read); job enqueued.
    Pending,
    InProgress,
    Extracted,
    /// The last attempt failed; `error` says why. The job may still be retried.
    Failed,
}

string_enum!(ExtractionStatus {
    Pending = "pending",
    InProgress = "in_progress",
    Extracted = "extracted",
    Failed = "failed",
});

#[derive(Debug, Clone, PartialEq, Serialize, utoipa::ToSchema)]
pub struct ExtractionRecord {
    pub source_key: String,
    #[serde(serialize_with = "crate::ids::serialize_user_id")]
    pub user_id: String,
    pub status: ExtractionStatus,
    pub requested_at: DateTime<Utc>,
    pub started_at: Option<DateTime<Utc>>,
    pub completed_at: Option<DateTime<Utc>>,
    pub error: Option<String>,
}

/// A node named by an extraction write: one of its own nodes, or the user's owner Person.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub enum NodeRef {
    /// Index into [`ExtractionWrite::nodes`].
    Extracted(usize),
    Owner,
}

/// A semantic node to MERGE by identity.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct NodeUpsert {
    pub identity: NodeIdentity,
    pub display_name: String,
    /// 0–1, normalised from the extractor's 0–10.
    pub confidence: f64,
}

/// A semantic relationship to MERGE by (from, to, relationship_type).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct RelationshipUpsert {
    pub from: NodeRef,
    pub to: NodeRef,
    /// snake_case, e.g. `works_with`.
    pub relationship_type: String,
    pub description: String,
    pub attitude: String,
    pub proximity: f64,
    pub strength: f64,
    pub confidence: f64,
}

/// Where a note goes.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum NoteTarget {
    Node(NodeRef),
    /// Index into [`ExtractionWrite::relationships`].
    Relationship(usize),
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct NoteWrite {
    pub target: NoteTarget,
    pub text: String,
    pub lifetime: NoteLifetime,
    /// When it was said: the turn's time where the transcript gives one, else the
    /// Source's event time ([`crate::domain::Note::said_at`]).
    pub said_at: DateTime<Utc>,
}

/// Everything one extraction of one Source for one user writes. Stores apply it in a
/// single transaction, idempotently: applying it twice leaves the graph as once.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ExtractionWrite {
    pub source_key: String,
    pub user_id: String,
    /// The Source's event time; hierarchy counters count days on it.
    pub event_time: DateTime<Utc>,
    /// "Now" for created/updated timestamps and notes.
    pub at: DateTime<Utc>,
    pub nodes: Vec<NodeUpsert>,
    pub relationships: Vec<RelationshipUpsert>,
    pub notes: Vec<NoteWrite>,
    /// Storylines (by id) this Source joins.
    pub storylines: Vec<String>,
    /// Whether this user owns the Source: then the Source itself becomes `extracted`.
    pub is_source_owner: bool,
}

impl ExtractionWrite {
    /// The event of node `key` this Source mentions again: a candidate confirmed by a
    /// second Source, or an archived node revived, `previous_state → active`, logged as
    /// `re_mentioned` by the system at the write's time.
    pub fn re_mentioned(
        &self,
        key: String,
        previous_state: super::MemoryState,
    ) -> super::LifecycleEvent {
        super::LifecycleEvent {
            memory_kind: super::MemoryKind::Node,
            memory_key: key,
            user_id: self.user_id.clone(),
            previous_state,
            new_state: super::MemoryState::Active,
            reason: "re_mentioned".into(),
            actor: super::Actor::System,
            at: self.at,
        }
    }
}

/// What applying an [`ExtractionWrite`] changed.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize)]
pub struct ExtractionOutcome {
    /// The extraction was already complete: nothing was written (a second job run, even
    /// with different model answers, cannot add to the graph).
    pub already_complete: bool,
    /// The entity key of each node in [`ExtractionWrite::nodes`], in order.
    pub node_keys: Vec<String>,
    pub nodes_created: usize,
    pub mentions_created: usize,
    pub relationships_created: usize,
    pub notes_added: usize,
    pub storylines_joined: usize,
}
