//! A Source's per-user extraction records: requested, started, failed, stuck.

use async_trait::async_trait;
use chrono::{DateTime, Utc};
use cosmo_core::domain::{ExtractionRecord, ExtractionStatus};
use cosmo_core::graph::{ExtractionRecordStore, GraphResult};
use cosmo_core::query_file;
use sqlx::Row;
use sqlx::sqlite::SqliteRow;

use super::{SqliteGraph, micros, opt_time, parse, time};

fn extraction_from_row(r: &SqliteRow) -> sqlx::Result<ExtractionRecord> {
    Ok(ExtractionRecord {
        source_key: r.try_get("source_key")?,
        user_id: r.try_get("user_id")?,
        status: parse::<ExtractionStatus>(r, "status")?,
        requested_at: time(r, "requested_at")?,
        started_at: opt_time(r, "started_at")?,
        completed_at: opt_time(r, "completed_at")?,
        error: r.try_get("error")?,
    })
}

#[async_trait]
impl ExtractionRecordStore for SqliteGraph {
    async fn request_extraction(
        &self,
        source_key: &str,
        user_id: &str,
        at: DateTime<Utc>,
    ) -> GraphResult<ExtractionRecord> {
        sqlx::query(query_file!("extraction_records/request_extraction.sql"))
            .bind(source_key)
            .bind(user_id)
            .bind(micros(at))
            .execute(&self.pool)
            .await?;
        self.extraction(source_key, user_id)
            .await?
            .ok_or_else(|| anyhow::anyhow!("extraction record vanished").into())
    }

    async fn extraction(
        &self,
        source_key: &str,
        user_id: &str,
    ) -> GraphResult<Option<ExtractionRecord>> {
        let row = sqlx::query(query_file!("extraction_records/extraction_record.sql"))
            .bind(source_key)
            .bind(user_id)
            .fetch_optional(&self.pool)
            .await?;
        Ok(row.as_ref().map(extraction_from_row).transpose()?)
    }

    async fn extractions(&self, source_key: &str) -> GraphResult<Vec<ExtractionRecord>> {
        let rows = sqlx::query(query_file!("extraction_records/extractions_of_source.sql"))
            .bind(source_key)
            .fetch_all(&self.pool)
            .await?;
        Ok(rows
            .iter()
            .map(extraction_from_row)
            .collect::<Result<_, _>>()?)
    }

    /// Marks an extraction in progress, creating the record if the job came first.
    async fn mark_extraction_started(
        &self,
        source_key: &str,
        user_id: &str,
        at: DateTime<Utc>,
    ) -> GraphResult<()> {
        let mut tx = self.begin().await?;
        sqlx::query(query_file!("extraction_records/start_extraction.sql"))
            .bind(source_key)
            .bind(user_id)
            .bind(micros(at))
            .execute(&mut *tx)
            .await?;
        sqlx::query(query_file!("extraction_records/mark_source_started.sql"))
            .bind(source_key)
            .bind(micros(at))
            .bind(user_id)
            .execute(&mut *tx)
            .await?;
        tx.commit().await?;
        Ok(())
    }

    async fn record_extraction_error(
        &self,
        source_key: &str,
        user_id: &str,
        error: &str,
        gave_up: bool,
        at: DateTime<Utc>,
    ) -> GraphResult<()> {
        sqlx::query(query_file!("extraction_records/record_error.sql"))
            .bind(source_key)
            .bind(user_id)
            .bind(error)
            .bind(micros(at))
            .bind(if gave_up { "failed" } else { "pending" })
            .execute(&self.pool)
            .await?;
        Ok(())
    }

    async fn unrequested_team_sources(
        &self,
        user_id: &str,
        limit: usize,
    ) -> GraphResult<Vec<String>> {
        Ok(sqlx::query_scalar(query_file!(
            "extraction_records/unrequested_team_sources.sql"
        ))
        .bind(user_id)
        .bind(limit as i64)
        .fetch_all(&self.pool)
        .await?)
    }

    async fn stuck_extractions(
        &self,
        before: DateTime<Utc>,
        limit: usize,
    ) -> GraphResult<Vec<ExtractionRecord>> {
        let rows = sqlx::query(query_file!("extraction_records/stuck_extractions.sql"))
            .bind(micros(before))
            .bind(limit as i64)
            .fetch_all(&self.pool)
            .await?;
        Ok(rows
            .iter()
            .map(extraction_from_row)
            .collect::<Result<_, _>>()?)
    }
}
