//! Extraction records on Neo4j (`cypher/sources/`): who asked for a Source's
//! extraction, and how each (Source, user) extraction stands.

use async_trait::async_trait;
use chrono::{DateTime, Utc};
use cosmo_core::domain::{ExtractionRecord, ExtractionStatus};
use cosmo_core::graph::{ExtractionRecordStore, GraphError, GraphResult};

use super::bolt::{Props, int, string_column};
use super::cypher::extraction as x;
use super::{Neo4jGraph, decode, finish, txn_rows};

#[async_trait]
impl ExtractionRecordStore for Neo4jGraph {
    async fn request_extraction(
        &self,
        source_key: &str,
        user_id: &str,
        at: DateTime<Utc>,
    ) -> GraphResult<ExtractionRecord> {
        let q = x::REQUEST
            .bind()
            .p("source_key", source_key)
            .p("user_id", user_id)
            .p("at", at);
        self.run(q.query()?).await?;
        self.extraction(source_key, user_id)
            .await?
            .ok_or_else(|| GraphError::NotFound(format!("source {source_key}")))
    }

    async fn extraction(
        &self,
        source_key: &str,
        user_id: &str,
    ) -> GraphResult<Option<ExtractionRecord>> {
        let q = x::GET
            .bind()
            .p("source_key", source_key)
            .p("user_id", user_id);
        let rows = self.rows(q.query()?).await?;
        rows.first()
            .map(|r| decode::extraction(&Props::from_row(r, "extraction")?))
            .transpose()
    }

    async fn extractions(&self, source_key: &str) -> GraphResult<Vec<ExtractionRecord>> {
        let q = x::FOR_SOURCE.bind().p("source_key", source_key);
        self.rows(q.query()?)
            .await?
            .iter()
            .map(|r| decode::extraction(&Props::from_row(r, "extraction")?))
            .collect()
    }

    /// Marks an extraction in progress (creating the record if the job came first) and,
    /// for the owner, the Source's `extraction_started_at`: one transaction.
    async fn mark_extraction_started(
        &self,
        source_key: &str,
        user_id: &str,
        at: DateTime<Utc>,
    ) -> GraphResult<()> {
        self.retrying(|| async {
            let mut txn = self.begin().await?;
            let result = async {
                for statement in [&x::MARK_STARTED, &x::MARK_SOURCE_STARTED] {
                    let q = statement
                        .bind()
                        .p("source_key", source_key)
                        .p("user_id", user_id)
                        .p("at", at);
                    txn_rows(&mut txn, q.query()?).await?;
                }
                Ok(())
            }
            .await;
            finish(txn, result).await
        })
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
        let status = if gave_up {
            ExtractionStatus::Failed
        } else {
            ExtractionStatus::Pending
        };
        let q = x::RECORD_ERROR
            .bind()
            .p("source_key", source_key)
            .p("user_id", user_id)
            .p("status", status.as_str())
            .p("error", error)
            .p("at", at);
        self.run(q.query()?).await
    }

    async fn unrequested_team_sources(
        &self,
        user_id: &str,
        limit: usize,
    ) -> GraphResult<Vec<String>> {
        let q = x::UNREQUESTED_TEAM_SOURCES
            .bind()
            .p("user_id", user_id)
            .p("limit", int(limit))
            .query()?;
        self.rows(q)
            .await?
            .iter()
            .map(|r| {
                string_column(r, "key")?
                    .ok_or_else(|| GraphError::Backend(anyhow::anyhow!("a Source without a key")))
            })
            .collect()
    }

    async fn stuck_extractions(
        &self,
        before: DateTime<Utc>,
        limit: usize,
    ) -> GraphResult<Vec<ExtractionRecord>> {
        let q = x::STUCK.bind().p("before", before);
        self.scan(
            q,
            limit,
            |r| decode::extraction(&Props::from_row(r, "extraction")?),
            |r| r.user_id.as_str(),
        )
        .await
    }
}
