//! Episodic consolidation: old, faded Sources sharing a node become an insight on it
//! (with `derived_from` links to them), and are archived.

use async_trait::async_trait;
use chrono::{DateTime, Utc};
use cosmo_core::domain::{Actor, LifecycleEvent, MemoryKind, MemoryState, SourceBrief};
use cosmo_core::graph::{
    ClusterRules, EpisodicConsolidation, EpisodicStore, GraphResult, SourceCluster,
};
use cosmo_core::ids;
use cosmo_core::query_file;
use sqlx::Row;

use super::hierarchy::brief;
use super::lifecycle::record_event;
use super::{SqliteGraph, micros};

/// Who writes consolidation insights.
pub const SYSTEM_AUTHOR: &str = "cosmo";

/// A count or limit as an SQLite integer; "no bound" (`usize::MAX`) stays the largest.
fn count_param(n: usize) -> i64 {
    i64::try_from(n).unwrap_or(i64::MAX)
}

#[async_trait]
impl EpisodicStore for SqliteGraph {
    async fn faded_sources(
        &self,
        older_than: DateTime<Utc>,
        salience_below: f64,
        limit: usize,
    ) -> GraphResult<Vec<(SourceBrief, Vec<String>)>> {
        let rows = sqlx::query(query_file!("episodic/faded_sources.sql"))
            .bind(micros(older_than))
            .bind(salience_below)
            .bind(limit as i64)
            .fetch_all(&self.pool)
            .await?;
        let mut out = Vec::with_capacity(rows.len());
        for r in &rows {
            let b = brief(r)?;
            let mentioned: Vec<String> =
                sqlx::query_scalar(query_file!("episodic/mentioned_nodes.sql"))
                    .bind(&b.entity_key)
                    .bind(&b.user_id)
                    .fetch_all(&self.pool)
                    .await?;
            out.push((b, mentioned));
        }
        Ok(out)
    }

    async fn source_clusters(
        &self,
        rules: &ClusterRules,
        limit: usize,
    ) -> GraphResult<Vec<SourceCluster>> {
        // Only the owner's own Sources: a participant's graph never archives them. Per
        // node: `eligible` Sources (old enough by event and by receipt, unarchived,
        // unpinned) make the cluster; `mentioned_by` (every own Source) against the
        // user's `corpus` decides whether the node is a shared anchor.
        let older_than = micros(rules.older_than);
        let rows = sqlx::query(query_file!("episodic/source_clusters.sql"))
            .bind(older_than)
            .bind(count_param(rules.min_sources))
            .bind(rules.anchor_share)
            .bind(count_param(rules.anchor_min_sources))
            .bind(count_param(limit))
            .fetch_all(&self.pool)
            .await?;
        let mut out = Vec::with_capacity(rows.len());
        for r in &rows {
            let entity_key: String = r.try_get("entity_key")?;
            let user_id: String = r.try_get("user_id")?;
            let sources = sqlx::query(query_file!("episodic/cluster_sources.sql"))
                .bind(&entity_key)
                .bind(older_than)
                .fetch_all(&self.pool)
                .await?;
            out.push(SourceCluster {
                sources: sources.iter().map(brief).collect::<sqlx::Result<_>>()?,
                entity_key,
                user_id,
            });
        }
        Ok(out)
    }

    async fn consolidate_sources(&self, c: &EpisodicConsolidation) -> GraphResult<usize> {
        let mut tx = self.begin().await?;
        let at = micros(c.at);
        let note_id = ids::note_id(&c.entity_key, SYSTEM_AUTHOR, None, &c.insight);
        let added = sqlx::query(query_file!("episodic/insert_insight_note.sql"))
            .bind(&c.entity_key)
            .bind(&note_id)
            .bind(&c.insight)
            .bind(SYSTEM_AUTHOR)
            .bind(at)
            .bind(c.lifetime.as_str())
            .bind(c.lifetime.expires_at(c.at).map(micros))
            .bind(serde_json::to_string(&c.source_keys).map_err(anyhow::Error::from)?)
            .execute(&mut *tx)
            .await?
            .rows_affected();
        if added == 1 {
            sqlx::query(query_file!("episodic/mark_node_dirty.sql"))
                .bind(&c.entity_key)
                .bind(at)
                .execute(&mut *tx)
                .await?;
        }
        let mut archived = 0;
        for source_key in &c.source_keys {
            sqlx::query(query_file!("episodic/insert_derived_from.sql"))
                .bind(&c.entity_key)
                .bind(source_key)
                .bind(&c.user_id)
                .bind(at)
                .bind(&note_id)
                .execute(&mut *tx)
                .await?;
            let previous: Option<String> =
                sqlx::query_scalar(query_file!("episodic/archivable_source_state.sql"))
                    .bind(source_key)
                    .bind(&c.user_id)
                    .fetch_optional(&mut *tx)
                    .await?;
            let Some(previous) = previous else { continue };
            sqlx::query(query_file!("episodic/archive_source.sql"))
                .bind(source_key)
                .bind(at)
                .execute(&mut *tx)
                .await?;
            let event = LifecycleEvent {
                memory_kind: MemoryKind::Source,
                memory_key: source_key.clone(),
                user_id: c.user_id.clone(),
                previous_state: previous
                    .parse::<MemoryState>()
                    .map_err(anyhow::Error::from)?,
                new_state: MemoryState::Archived,
                reason: "consolidated".into(),
                actor: Actor::System,
                at: c.at,
            };
            record_event(&mut tx, &event).await?;
            archived += 1;
        }
        tx.commit().await?;
        Ok(archived)
    }

    async fn derived_sources(&self, entity_key: &str) -> GraphResult<Vec<String>> {
        Ok(
            sqlx::query_scalar(query_file!("episodic/derived_sources.sql"))
                .bind(entity_key)
                .fetch_all(self.pool())
                .await?,
        )
    }
}
