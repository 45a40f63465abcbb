//! The graph store: where Sources and each user's semantic graph live.
//!
//! One trait, [`GraphStore`], with an embedded SQLite implementation ([`sqlite`]) and the
//! production Neo4j one. Every method is one operation of the pipeline (one Cypher file
//! per operation on Neo4j), takes its time from the caller (the injectable clock) and is
//! idempotent where the pipeline may repeat it. Multi-step writes (Phase 2) are single
//! methods so each backend can apply them in one transaction. The contract suite in
//! `tests/suite/graph_contract/` holds every backend to the same behaviour.

use async_trait::async_trait;
use chrono::{DateTime, Utc};
use serde::Serialize;

use crate::domain::{
    ExtractionOutcome, ExtractionRecord, ExtractionWrite, Macro, Mention, NewMacro, NewSource,
    NewStoryline, NodeIdentity, Passage, ProcessedContent, Relationship, SemanticNode, Source,
    SourceRef, SourceWrite, Storyline,
};

pub mod links;
pub mod maintenance;
pub mod neo4j;
pub mod read;
pub mod snapshot;
pub mod sqlite;
pub mod text_rank;

pub use links::LinkStore;
pub use maintenance::{DecayPage, MaintenanceStore};
pub use read::{ErasureStore, FactStore, LifecycleUpdate, ReadStore};

pub use snapshot::GraphSnapshot;

#[derive(Debug, thiserror::Error)]
pub enum GraphError {
    /// The write would break an identity rule (e.g. two Persons with one name).
    #[error("{0}")]
    Conflict(String),
    #[error("{0} not found")]
    NotFound(String),
    #[error(transparent)]
    Backend(#[from] anyhow::Error),
}

impl From<sqlx::Error> for GraphError {
    fn from(e: sqlx::Error) -> Self {
        Self::Backend(e.into())
    }
}

pub type GraphResult<T> = Result<T, GraphError>;

/// A Storyline that a new Source about `anchor` could join.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct StorylineCandidate {
    pub anchor: NodeIdentity,
    pub storyline: Storyline,
}

/// Everything a graph store does: the pipeline's operations here, the maintenance jobs'
/// in [`MaintenanceStore`], the read side's in [`ReadStore`], [`FactStore`] and
/// [`ErasureStore`], the links between Sources in [`LinkStore`].
#[async_trait]
pub trait GraphStore:
    MaintenanceStore + ReadStore + FactStore + ErasureStore + LinkStore + Send + Sync + std::fmt::Debug
{
    /// `sqlite` or `neo4j`, for logs and health checks.
    fn backend(&self) -> &'static str;

    /// Creates tables/constraints/indexes; safe to run at every start.
    async fn migrate(&self) -> GraphResult<()>;

    /// Checks the store answers.
    async fn ping(&self) -> GraphResult<()>;

    // ---- Sources (Phase 0/1) ----

    /// Writes a raw Source unless one with the same entity key exists (same owner and
    /// idempotency key), in which case that one is returned untouched.
    async fn create_source(&self, source: &NewSource) -> GraphResult<SourceWrite>;

    async fn source(&self, entity_key: &str) -> GraphResult<Option<Source>>;

    /// A user's Sources, ordered by entity key, after `after`.
    async fn sources_for_user(
        &self,
        user_id: &str,
        after: Option<&str>,
        limit: usize,
    ) -> GraphResult<Vec<Source>>;

    async fn mark_processing_started(&self, entity_key: &str, at: DateTime<Utc>)
    -> GraphResult<()>;

    /// Writes Phase 1's output and sets `processed` (unless already further), in one
    /// transaction: content, summary, keywords, tags, the summary's embedding, the
    /// passages (the Source ends with exactly these) and the embedder fingerprint.
    /// Returns false if the Source does not exist.
    async fn save_processed(
        &self,
        entity_key: &str,
        processed: &ProcessedContent,
        at: DateTime<Utc>,
    ) -> GraphResult<bool>;

    /// Replaces a Source's index, in one transaction: the summary's embedding, the
    /// passages (exactly as `save_processed` writes them: the Source ends with exactly
    /// these) and the fingerprint of the embedder that made them; clears the last
    /// processing error and sets `updated_at`. Content, summary, keywords, tags, status
    /// and processing times are left as they are. Returns false if the Source does not
    /// exist.
    async fn save_index(
        &self,
        entity_key: &str,
        embedding: &[f32],
        passages: &[Passage],
        embedded_with: &str,
        at: DateTime<Utc>,
    ) -> GraphResult<bool>;

    /// Records the last processing failure (`None` clears it).
    async fn record_processing_error(
        &self,
        entity_key: &str,
        error: Option<&str>,
        at: DateTime<Utc>,
    ) -> GraphResult<()>;

    /// Sources still `raw` or `processed` whose last update is older than `before`.
    async fn stuck_sources(
        &self,
        before: DateTime<Utc>,
        limit: usize,
    ) -> GraphResult<Vec<SourceRef>>;

    /// Processed or extracted Sources whose index (summary embedding and passages) was
    /// made by another embedder than `embedded_with`, or by one never recorded, by
    /// entity key, at most `limit`. Raw Sources are never listed. Index-backed on both
    /// stores, so a scan that finds nothing reads (almost) nothing.
    async fn stale_index(&self, embedded_with: &str, limit: usize) -> GraphResult<Vec<SourceRef>>;

    // ---- Owner Person ----

    /// Creates or renames the user's owner Person from the profile's full name. If a
    /// Person with that canonical name was already extracted, it becomes the owner.
    async fn upsert_owner(
        &self,
        user_id: &str,
        full_name: &str,
        at: DateTime<Utc>,
    ) -> GraphResult<SemanticNode>;

    async fn owner(&self, user_id: &str) -> GraphResult<Option<SemanticNode>>;

    // ---- Extraction (Phase 2) ----

    /// Records that `user_id` wants this Source extracted; keeps an existing record
    /// (a failed one goes back to pending).
    async fn request_extraction(
        &self,
        source_key: &str,
        user_id: &str,
        at: DateTime<Utc>,
    ) -> GraphResult<ExtractionRecord>;

    async fn extraction(
        &self,
        source_key: &str,
        user_id: &str,
    ) -> GraphResult<Option<ExtractionRecord>>;

    async fn extractions(&self, source_key: &str) -> GraphResult<Vec<ExtractionRecord>>;

    async fn mark_extraction_started(
        &self,
        source_key: &str,
        user_id: &str,
        at: DateTime<Utc>,
    ) -> GraphResult<()>;

    /// Records a failed attempt: back to `pending` (a retry follows), or `failed` when
    /// the job `gave_up`. A completed extraction stays completed.
    async fn record_extraction_error(
        &self,
        source_key: &str,
        user_id: &str,
        error: &str,
        gave_up: bool,
        at: DateTime<Utc>,
    ) -> GraphResult<()>;

    /// Extraction records `pending`/`in_progress` not updated since `before`.
    async fn stuck_extractions(
        &self,
        before: DateTime<Utc>,
        limit: usize,
    ) -> GraphResult<Vec<ExtractionRecord>>;

    /// Active/core Storylines about any of `anchors` whose last Source is after `since`.
    async fn storyline_candidates(
        &self,
        user_id: &str,
        anchors: &[NodeIdentity],
        since: DateTime<Utc>,
    ) -> GraphResult<Vec<StorylineCandidate>>;

    /// Applies one extraction in one transaction: MERGE nodes, `mentions`, hierarchy
    /// counters once per (Source, node), notes, relationships, Storyline attachment, and
    /// the completed extraction record. A node mentioned by a second Source is confirmed
    /// (`candidate → active`, event `re_mentioned`). When the (Source, user) extraction is
    /// already complete nothing is written.
    async fn write_extraction(&self, write: &ExtractionWrite) -> GraphResult<ExtractionOutcome>;

    // ---- Storylines ----

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

    // ---- Semantic reads ----

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
