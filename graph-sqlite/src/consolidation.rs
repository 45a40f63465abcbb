//! Description consolidation and note cleanup on SQLite.

use async_trait::async_trait;
use chrono::{DateTime, Utc};
use cosmo_core::domain::{Relationship, SemanticNode};
use cosmo_core::graph::{ConsolidationStore, GraphResult};

use super::{SqliteGraph, encode_embedding, micros};

#[async_trait]
impl ConsolidationStore for SqliteGraph {
    async fn dirty_nodes(&self, limit: usize) -> GraphResult<Vec<SemanticNode>> {
        let rows = sqlx::query(
            "SELECT * FROM nodes WHERE is_dirty = 1
             ORDER BY last_accessed_at IS NULL, last_accessed_at DESC, entity_key LIMIT $1",
        )
        .bind(limit as i64)
        .fetch_all(&self.pool)
        .await?;
        self.with_details(rows).await
    }

    async fn dirty_relationships(&self, limit: usize) -> GraphResult<Vec<Relationship>> {
        let rows = sqlx::query(
            "SELECT * FROM relationships WHERE is_dirty = 1
             ORDER BY last_accessed_at IS NULL, last_accessed_at DESC, rel_key LIMIT $1",
        )
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
        sqlx::query(
            "UPDATE nodes SET description = $2, embedding = coalesce($3, embedding), is_dirty = 0, updated_at = $4
             WHERE entity_key = $1",
        )
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
        sqlx::query(
            "UPDATE relationships SET description = $2, notes_embedding = coalesce($3, notes_embedding),
                is_dirty = 0, updated_at = $4
             WHERE rel_key = $1",
        )
        .bind(key)
        .bind(description)
        .bind(encode_embedding(notes_embedding))
        .bind(micros(at))
        .execute(&self.pool)
        .await?;
        Ok(())
    }

    async fn delete_expired_notes(&self, now: DateTime<Utc>, limit: usize) -> GraphResult<usize> {
        let done = sqlx::query(
            "DELETE FROM notes WHERE rowid IN (
                SELECT rowid FROM notes WHERE expires_at IS NOT NULL AND expires_at <= $1 LIMIT $2)",
        )
        .bind(micros(now))
        .bind(limit as i64)
        .execute(&self.pool)
        .await?;
        Ok(done.rows_affected() as usize)
    }
}
