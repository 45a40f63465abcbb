//! Who asked for a Source's extraction (Phase 2), and how each (Source, user)
//! extraction stands.

use async_trait::async_trait;
use chrono::{DateTime, Utc};

use crate::domain::ExtractionRecord;
use crate::graph::GraphResult;

#[async_trait]
pub trait ExtractionRecordStore: Send + Sync {
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

    /// The team Sources `user_id` takes part in but does not own whose extraction for
    /// them was never requested or failed for good: the next ones a batch extraction
    /// asks for, entity-key order, at most `limit`.
    async fn unrequested_team_sources(
        &self,
        user_id: &str,
        limit: usize,
    ) -> GraphResult<Vec<String>>;

    /// Extraction records `pending`/`in_progress` not updated since `before`.
    async fn stuck_extractions(
        &self,
        before: DateTime<Utc>,
        limit: usize,
    ) -> GraphResult<Vec<ExtractionRecord>>;
}
