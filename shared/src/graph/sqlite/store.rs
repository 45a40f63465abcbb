//! `GraphStore` for [`SqliteGraph`]: each method forwards to the module that owns it.

use async_trait::async_trait;
use chrono::{DateTime, Utc};

use super::SqliteGraph;
use crate::domain::{
    ExtractionOutcome, ExtractionRecord, ExtractionWrite, Macro, Mention, NewMacro, NewSource,
    NewStoryline, NodeIdentity, Passage, ProcessedContent, Relationship, SemanticNode, Source,
    SourceRef, SourceWrite, Storyline,
};
use crate::graph::{GraphResult, GraphStore, StorylineCandidate};

/// Graph tables have their own migrations table, so the same file can hold the queue's
/// and the directory's migrations too.
const MIGRATIONS_TABLE: &str = "cosmo_graph_migrations";

#[async_trait]
impl GraphStore for SqliteGraph {
    fn backend(&self) -> &'static str {
        "sqlite"
    }

    async fn migrate(&self) -> GraphResult<()> {
        // Decay's statements need SQLite's math functions, compiled in through
        // `LIBSQLITE3_FLAGS` (the workspace's `.cargo/config.toml`).
        sqlx::query("SELECT exp(0.0), pow(2.0, 0.5)")
            .execute(&self.pool)
            .await
            .map_err(|e| {
                anyhow::anyhow!(
                    "this build's SQLite lacks its math functions ({e}); build Cosmo from its \
                     workspace, whose .cargo/config.toml sets \
                     LIBSQLITE3_FLAGS=-DSQLITE_ENABLE_MATH_FUNCTIONS"
                )
            })?;
        let mut migrator = sqlx::migrate!("../migrations/sqlite-graph");
        migrator.dangerous_set_table_name(MIGRATIONS_TABLE);
        migrator
            .run(&self.pool)
            .await
            .map_err(anyhow::Error::from)?;
        Ok(())
    }

    async fn ping(&self) -> GraphResult<()> {
        sqlx::query("SELECT 1").execute(&self.pool).await?;
        Ok(())
    }

    async fn create_source(&self, source: &NewSource) -> GraphResult<SourceWrite> {
        self.create_source_impl(source).await
    }

    async fn source(&self, entity_key: &str) -> GraphResult<Option<Source>> {
        self.source_impl(entity_key).await
    }

    async fn sources_for_user(
        &self,
        user_id: &str,
        after: Option<&str>,
        limit: usize,
    ) -> GraphResult<Vec<Source>> {
        self.sources_for_user_impl(user_id, after, limit).await
    }

    async fn mark_processing_started(
        &self,
        entity_key: &str,
        at: DateTime<Utc>,
    ) -> GraphResult<()> {
        self.mark_processing_started_impl(entity_key, at).await
    }

    async fn save_processed(
        &self,
        entity_key: &str,
        p: &ProcessedContent,
        at: DateTime<Utc>,
    ) -> GraphResult<bool> {
        self.save_processed_impl(entity_key, p, at).await
    }

    async fn save_index(
        &self,
        entity_key: &str,
        embedding: &[f32],
        passages: &[Passage],
        embedded_with: &str,
        at: DateTime<Utc>,
    ) -> GraphResult<bool> {
        self.save_index_impl(entity_key, embedding, passages, embedded_with, at)
            .await
    }

    async fn record_processing_error(
        &self,
        entity_key: &str,
        error: Option<&str>,
        at: DateTime<Utc>,
    ) -> GraphResult<()> {
        self.record_processing_error_impl(entity_key, error, at)
            .await
    }

    async fn stuck_sources(
        &self,
        before: DateTime<Utc>,
        limit: usize,
    ) -> GraphResult<Vec<SourceRef>> {
        self.stuck_sources_impl(before, limit).await
    }

    async fn stale_index(&self, embedded_with: &str, limit: usize) -> GraphResult<Vec<SourceRef>> {
        self.stale_index_impl(embedded_with, limit).await
    }

    async fn upsert_owner(
        &self,
        user_id: &str,
        full_name: &str,
        at: DateTime<Utc>,
    ) -> GraphResult<SemanticNode> {
        self.upsert_owner_impl(user_id, full_name, at).await
    }

    async fn owner(&self, user_id: &str) -> GraphResult<Option<SemanticNode>> {
        self.owner_impl(user_id).await
    }

    async fn request_extraction(
        &self,
        source_key: &str,
        user_id: &str,
        at: DateTime<Utc>,
    ) -> GraphResult<ExtractionRecord> {
        self.request_extraction_impl(source_key, user_id, at).await
    }

    async fn extraction(
        &self,
        source_key: &str,
        user_id: &str,
    ) -> GraphResult<Option<ExtractionRecord>> {
        self.extraction_impl(source_key, user_id).await
    }

    async fn extractions(&self, source_key: &str) -> GraphResult<Vec<ExtractionRecord>> {
        self.extractions_impl(source_key).await
    }

    async fn mark_extraction_started(
        &self,
        source_key: &str,
        user_id: &str,
        at: DateTime<Utc>,
    ) -> GraphResult<()> {
        self.mark_extraction_started_impl(source_key, user_id, at)
            .await
    }

    async fn record_extraction_error(
        &self,
        source_key: &str,
        user_id: &str,
        error: &str,
        gave_up: bool,
        at: DateTime<Utc>,
    ) -> GraphResult<()> {
        self.record_extraction_error_impl(source_key, user_id, error, gave_up, at)
            .await
    }

    async fn stuck_extractions(
        &self,
        before: DateTime<Utc>,
        limit: usize,
    ) -> GraphResult<Vec<ExtractionRecord>> {
        self.stuck_extractions_impl(before, limit).await
    }

    async fn storyline_candidates(
        &self,
        user_id: &str,
        anchors: &[NodeIdentity],
        since: DateTime<Utc>,
    ) -> GraphResult<Vec<StorylineCandidate>> {
        self.storyline_candidates_impl(user_id, anchors, since)
            .await
    }

    async fn write_extraction(&self, write: &ExtractionWrite) -> GraphResult<ExtractionOutcome> {
        self.write_extraction_impl(write).await
    }

    async fn create_storyline(&self, storyline: &NewStoryline) -> GraphResult<Storyline> {
        self.create_storyline_impl(storyline).await
    }

    async fn storyline(&self, storyline_id: &str) -> GraphResult<Option<Storyline>> {
        self.storyline_impl(storyline_id).await
    }

    async fn storyline_sources(&self, storyline_id: &str) -> GraphResult<Vec<String>> {
        self.storyline_sources_impl(storyline_id).await
    }

    async fn storylines_for_user(&self, user_id: &str) -> GraphResult<Vec<Storyline>> {
        self.storylines_for_user_impl(user_id).await
    }

    async fn create_macro(&self, new: &NewMacro) -> GraphResult<Macro> {
        self.create_macro_impl(new).await
    }

    async fn macro_by_id(&self, macro_id: &str) -> GraphResult<Option<Macro>> {
        self.macro_impl(macro_id).await
    }

    async fn node(&self, entity_key: &str) -> GraphResult<Option<SemanticNode>> {
        self.node_impl(entity_key).await
    }

    async fn nodes_for_user(
        &self,
        user_id: &str,
        after: Option<&str>,
        limit: usize,
    ) -> GraphResult<Vec<SemanticNode>> {
        self.nodes_for_user_impl(user_id, after, limit).await
    }

    async fn relationships_for_user(
        &self,
        user_id: &str,
        after: Option<&str>,
        limit: usize,
    ) -> GraphResult<Vec<Relationship>> {
        self.relationships_for_user_impl(user_id, after, limit)
            .await
    }

    async fn mentions_for_user(&self, user_id: &str) -> GraphResult<Vec<Mention>> {
        self.mentions_for_user_impl(user_id).await
    }
}
