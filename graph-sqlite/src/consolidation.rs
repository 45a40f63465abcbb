//! Description consolidation and note cleanup on SQLite.

use async_trait::async_trait;
use chrono::{DateTime, Utc};
use cosmo_core::domain::{Relationship, SemanticNode};
use cosmo_core::graph::{ConsolidationStore, GraphResult};
use cosmo_core::query_file;

use super::{SqliteGraph, encode_embedding, micros};

#[async_trait]
impl ConsolidationStore for SqliteGraph {
    async fn dirty_nodes(&self, limit: usize) -> GraphResult<Vec<SemanticNode>> {
        let rows = sqlx::query(query_file!("consolidation/dirty_nodes.sql"))
            .bind(limit as i64)
            .fetch_all(&self.pool)
            .await?;
        self.with_details(rows).await
    }

    async fn dirty_relationships(&self, limit: usize) -> GraphResult<Vec<Relationship>> {
        let rows = sqlx::query(query_file!("consolidation/dirty_relationships.sql"))
            .bind(limit as i64)
            .fetch_all(&self.pool)
            .await?;
        self.relationships_with_notes(rows).await
    }

    async fn consolidate_node(
        &self,
        key: &str,
        description: &str,
        embedding: Option<&[f32]>,
        at: DateTime<Utc>,
    ) -> GraphResult<()> {
        sqlx::query(query_file!("consolidation/consolidate_node.sql"))
            .bind(key)
            .bind(description)
            .bind(encode_embedding(embedding))
            .bind(micros(at))
            .execute(&self.pool)
            .await?;
        Ok(())
    }

    async fn consolidate_relationship(
        &self,
        key: &str,
        description: &str,
        notes_embedding: Option<&[f32]>,
        at: DateTime<Utc>,
    ) -> GraphResult<()> {
        sqlx::query(query_file!("consolidation/consolidate_relationship.sql"))
            .bind(key)
            .bind(description)
            .bind(encode_embedding(notes_embedding))
            .bind(micros(at))
            .execute(&self.pool)
            .await?;
        Ok(())
    }

    async fn delete_expired_notes(&self, now: DateTime<Utc>, limit: usize) -> GraphResult<usize> {
        let done = sqlx::query(query_file!("consolidation/delete_expired_notes.sql"))
            .bind(micros(now))
            .bind(limit as i64)
            .execute(&self.pool)
            .await?;
        Ok(done.rows_affected() as usize)
    }

    async fn count_expired_notes(&self, now: DateTime<Utc>) -> GraphResult<u64> {
        let n: i64 = sqlx::query_scalar(query_file!("consolidation/count_expired_notes.sql"))
            .bind(micros(now))
            .fetch_one(&self.pool)
            .await?;
        Ok(n as u64)
    }
}
