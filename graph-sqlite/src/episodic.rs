//! Episodic consolidation: old, faded Sources sharing a node become an insight on it
//! (with `derived_from` links to them), and are archived.

use async_trait::async_trait;
use chrono::{DateTime, Utc};
use cosmo_core::domain::{Actor, LifecycleEvent, MemoryKind, MemoryState, SourceBrief};
use cosmo_core::graph::{
    ClusterRules, EpisodicConsolidation, EpisodicStore, GraphResult, SourceCluster,
};
use cosmo_core::ids;
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
        let rows = sqlx::query(
            "SELECT entity_key, user_id, summary, coalesce(started_at, created_at) AS event_at FROM sources
             WHERE state <> 'archived' AND pinned = 0 AND salience < $2
               AND coalesce(started_at, created_at) < $1 AND created_at < $1
               AND EXISTS (SELECT 1 FROM mentions m JOIN nodes n ON n.entity_key = m.entity_key
                           WHERE m.source_key = sources.entity_key AND m.user_id = sources.user_id
                             AND n.is_owner = 0)
             ORDER BY event_at, entity_key LIMIT $3",
        )
        .bind(micros(older_than))
        .bind(salience_below)
        .bind(limit as i64)
        .fetch_all(&self.pool)
        .await?;
        let mut out = Vec::with_capacity(rows.len());
        for r in &rows {
            let b = brief(r)?;
            let mentioned: Vec<String> = sqlx::query_scalar(
                "SELECT m.entity_key FROM mentions m JOIN nodes n ON n.entity_key = m.entity_key
                 WHERE m.source_key = $1 AND m.user_id = $2 AND n.is_owner = 0 ORDER BY m.entity_key",
            )
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
        let rows = sqlx::query(
            "WITH histories AS (SELECT user_id, count(*) AS sources FROM sources GROUP BY user_id)
             SELECT m.entity_key, m.user_id,
                    sum(s.state <> 'archived' AND s.pinned = 0
                        AND coalesce(s.started_at, s.created_at) < $1 AND s.created_at < $1) AS eligible,
                    count(*) AS mentioned_by, h.sources AS corpus
             FROM mentions m JOIN sources s ON s.entity_key = m.source_key AND s.user_id = m.user_id
             JOIN nodes n ON n.entity_key = m.entity_key
             JOIN histories h ON h.user_id = m.user_id
             WHERE n.is_owner = 0
             GROUP BY m.entity_key, m.user_id, h.sources
             HAVING eligible >= $2 AND (corpus < $4 OR mentioned_by <= $3 * corpus)
             ORDER BY eligible DESC, m.entity_key LIMIT $5",
        )
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
            let sources = sqlx::query(
                "SELECT s.entity_key, s.user_id, s.summary, coalesce(s.started_at, s.created_at) AS event_at
                 FROM mentions m JOIN sources s ON s.entity_key = m.source_key AND s.user_id = m.user_id
                 WHERE m.entity_key = $1 AND s.state <> 'archived' AND s.pinned = 0
                   AND coalesce(s.started_at, s.created_at) < $2 AND s.created_at < $2
                 ORDER BY event_at, s.entity_key",
            )
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
        let added = sqlx::query(
            "INSERT INTO notes (owner_key, note_id, owner_kind, user_id, text, added_by, source_id, date_added,
                lifetime, expires_at)
             SELECT $1, $2, 'node', user_id, $3, $4, NULL, $5, $6, $7 FROM nodes WHERE entity_key = $1
             ON CONFLICT DO NOTHING",
        )
        .bind(&c.entity_key)
        .bind(&note_id)
        .bind(&c.insight)
        .bind(SYSTEM_AUTHOR)
        .bind(at)
        .bind(c.lifetime.as_str())
        .bind(c.lifetime.expires_at(c.at).map(micros))
        .execute(&mut *tx)
        .await?
        .rows_affected();
        if added == 1 {
            sqlx::query("UPDATE nodes SET is_dirty = 1, updated_at = $2 WHERE entity_key = $1")
                .bind(&c.entity_key)
                .bind(at)
                .execute(&mut *tx)
                .await?;
        }
        let mut archived = 0;
        for source_key in &c.source_keys {
            sqlx::query(
                "INSERT INTO derived_from (entity_key, source_key, user_id, created_at, note_id)
                 VALUES ($1, $2, $3, $4, $5) ON CONFLICT DO NOTHING",
            )
            .bind(&c.entity_key)
            .bind(source_key)
            .bind(&c.user_id)
            .bind(at)
            .bind(&note_id)
            .execute(&mut *tx)
            .await?;
            let previous: Option<String> = sqlx::query_scalar(
                "SELECT state FROM sources
                 WHERE entity_key = $1 AND user_id = $2 AND state <> 'archived' AND pinned = 0",
            )
            .bind(source_key)
            .bind(&c.user_id)
            .fetch_optional(&mut *tx)
            .await?;
            let Some(previous) = previous else { continue };
            sqlx::query(
                "UPDATE sources SET state = 'archived', updated_at = $2 WHERE entity_key = $1",
            )
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
        Ok(sqlx::query_scalar(
            "SELECT DISTINCT source_key FROM derived_from WHERE entity_key = $1 ORDER BY source_key",
        )
        .bind(entity_key)
        .fetch_all(self.pool())
        .await?)
    }
}
