//! Sources as they arrive and are processed (Phases 0 and 1): written once per
//! idempotency key, marked, indexed, and found again when stuck or indexed by another
//! embedder.

use async_trait::async_trait;
use chrono::{DateTime, Utc};

use crate::domain::{NewSource, Passage, ProcessedContent, Source, SourceRef, SourceWrite};
use crate::graph::GraphResult;

#[async_trait]
pub trait SourceStore: Send + Sync {
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
}
