//! Storyline and Macro promotion and refresh on SQLite.

use async_trait::async_trait;
use chrono::{DateTime, Utc};
use cosmo_core::domain::{Macro, SourceBrief, Storyline};
use cosmo_core::graph::{
    GraphResult, HierarchyStore, MacroCandidateAnchor, StorylineCandidateAnchor, StorylineRules,
};
use sqlx::Row;
use sqlx::sqlite::SqliteRow;

use super::{SqliteGraph, encode_embedding, micros, time};

/// Sources about an anchor that none of its Storylines includes yet.
const UNCOVERED: &str =
    "SELECT s.entity_key, s.user_id, s.summary, coalesce(s.started_at, s.created_at) AS event_at
    FROM mentions m JOIN sources s ON s.entity_key = m.source_key
    WHERE m.entity_key = $1 AND NOT EXISTS (
        SELECT 1 FROM storyline_sources ss JOIN storylines st ON st.storyline_id = ss.storyline_id
        WHERE ss.source_key = m.source_key AND st.anchor_key = m.entity_key)
    ORDER BY event_at, s.entity_key";

pub(super) fn brief(r: &SqliteRow) -> sqlx::Result<SourceBrief> {
    Ok(SourceBrief {
        entity_key: r.try_get("entity_key")?,
        user_id: r.try_get("user_id")?,
        summary: r.try_get("summary")?,
        event_time: time(r, "event_at")?,
    })
}

#[async_trait]
impl HierarchyStore for SqliteGraph {
    async fn storyline_promotion_candidates(
        &self,
        rules: &StorylineRules,
        limit: usize,
    ) -> GraphResult<Vec<StorylineCandidateAnchor>> {
        let rows = sqlx::query(
            "WITH uncovered AS (
                SELECT m.entity_key, coalesce(s.started_at, s.created_at) AS event_at
                FROM mentions m
                JOIN nodes n ON n.entity_key = m.entity_key
                JOIN sources s ON s.entity_key = m.source_key
                WHERE n.state IN ('active', 'core') AND n.source_count >= $1
                  AND NOT EXISTS (
                    SELECT 1 FROM storyline_sources ss JOIN storylines st ON st.storyline_id = ss.storyline_id
                    WHERE ss.source_key = m.source_key AND st.anchor_key = m.entity_key))
             SELECT n.entity_key, n.user_id, n.name
             FROM nodes n JOIN (
                SELECT entity_key, count(*) AS sources,
                       count(DISTINCT date(event_at / 1000000, 'unixepoch')) AS days, min(event_at) AS first_at
                FROM uncovered GROUP BY entity_key) u ON u.entity_key = n.entity_key
             WHERE u.sources >= $1 AND u.days >= $2 AND u.first_at < $3
             ORDER BY n.source_count DESC, n.entity_key LIMIT $4",
        )
        .bind(rules.min_sources)
        .bind(rules.min_days)
        .bind(micros(rules.first_before))
        .bind(limit as i64)
        .fetch_all(&self.pool)
        .await?;
        let mut out = Vec::with_capacity(rows.len());
        for r in &rows {
            let anchor_key: String = r.try_get("entity_key")?;
            let sources = sqlx::query(UNCOVERED)
                .bind(&anchor_key)
                .fetch_all(&self.pool)
                .await?;
            out.push(StorylineCandidateAnchor {
                user_id: r.try_get("user_id")?,
                anchor_name: r.try_get("name")?,
                sources: sources.iter().map(brief).collect::<sqlx::Result<_>>()?,
                anchor_key,
            });
        }
        Ok(out)
    }

    async fn dirty_storylines(
        &self,
        active_since: DateTime<Utc>,
        limit: usize,
    ) -> GraphResult<Vec<Storyline>> {
        let rows = sqlx::query(
            "SELECT * FROM storylines WHERE is_dirty = 1 AND state IN ('active', 'core') AND last_source_at > $1
             ORDER BY source_count DESC, storyline_id LIMIT $2",
        )
        .bind(micros(active_since))
        .bind(limit as i64)
        .fetch_all(&self.pool)
        .await?;
        Ok(rows
            .iter()
            .map(super::storylines::storyline_from_row)
            .collect::<sqlx::Result<_>>()?)
    }

    async fn storyline_briefs(
        &self,
        storyline_id: &str,
        limit: usize,
    ) -> GraphResult<Vec<SourceBrief>> {
        let rows = sqlx::query(
            "SELECT * FROM (
                SELECT s.entity_key, s.user_id, s.summary, coalesce(s.started_at, s.created_at) AS event_at
                FROM storyline_sources ss JOIN sources s ON s.entity_key = ss.source_key
                WHERE ss.storyline_id = $1 ORDER BY event_at DESC, s.entity_key DESC LIMIT $2)
             ORDER BY event_at, entity_key",
        )
        .bind(storyline_id)
        .bind(limit as i64)
        .fetch_all(&self.pool)
        .await?;
        Ok(rows.iter().map(brief).collect::<sqlx::Result<_>>()?)
    }

    async fn refresh_storyline(
        &self,
        storyline_id: &str,
        description: &str,
        embedding: Option<&[f32]>,
        at: DateTime<Utc>,
    ) -> GraphResult<()> {
        sqlx::query(
            "UPDATE storylines SET description = $2, embedding = coalesce($3, embedding), is_dirty = 0, updated_at = $4
             WHERE storyline_id = $1",
        )
        .bind(storyline_id)
        .bind(description)
        .bind(encode_embedding(embedding))
        .bind(micros(at))
        .execute(&self.pool)
        .await?;
        Ok(())
    }

    async fn macro_promotion_candidates(
        &self,
        first_before: DateTime<Utc>,
        limit: usize,
    ) -> GraphResult<Vec<MacroCandidateAnchor>> {
        let rows = sqlx::query(
            "SELECT n.entity_key, n.user_id, n.name, count(*) AS storylines
             FROM nodes n JOIN storylines st ON st.anchor_key = n.entity_key
             WHERE st.state IN ('active', 'core') AND n.has_macro = 0 AND n.first_mentioned_at < $1
             GROUP BY n.entity_key HAVING count(*) >= 2
             ORDER BY storylines DESC, n.entity_key LIMIT $2",
        )
        .bind(micros(first_before))
        .bind(limit as i64)
        .fetch_all(&self.pool)
        .await?;
        let mut out = Vec::with_capacity(rows.len());
        for r in &rows {
            let anchor_key: String = r.try_get("entity_key")?;
            let storylines = sqlx::query(
                "SELECT * FROM storylines WHERE anchor_key = $1 AND state IN ('active', 'core')
                 ORDER BY first_source_at, storyline_id",
            )
            .bind(&anchor_key)
            .fetch_all(&self.pool)
            .await?;
            out.push(MacroCandidateAnchor {
                user_id: r.try_get("user_id")?,
                anchor_name: r.try_get("name")?,
                storylines: storylines
                    .iter()
                    .map(super::storylines::storyline_from_row)
                    .collect::<sqlx::Result<_>>()?,
                anchor_key,
            });
        }
        Ok(out)
    }

    async fn dirty_macros(&self, limit: usize) -> GraphResult<Vec<Macro>> {
        let rows = sqlx::query(
            "SELECT * FROM macros WHERE is_dirty = 1 AND state IN ('active', 'core')
             ORDER BY total_source_count DESC, macro_id LIMIT $1",
        )
        .bind(limit as i64)
        .fetch_all(&self.pool)
        .await?;
        Ok(rows
            .iter()
            .map(super::storylines::macro_from_row)
            .collect::<sqlx::Result<_>>()?)
    }

    async fn macro_storylines(&self, macro_id: &str) -> GraphResult<Vec<Storyline>> {
        let rows = sqlx::query(
            "SELECT st.* FROM macro_storylines ms JOIN storylines st ON st.storyline_id = ms.storyline_id
             WHERE ms.macro_id = $1 ORDER BY st.first_source_at, st.storyline_id",
        )
        .bind(macro_id)
        .fetch_all(&self.pool)
        .await?;
        Ok(rows
            .iter()
            .map(super::storylines::storyline_from_row)
            .collect::<sqlx::Result<_>>()?)
    }

    async fn refresh_macro(
        &self,
        macro_id: &str,
        description: &str,
        embedding: Option<&[f32]>,
        at: DateTime<Utc>,
    ) -> GraphResult<()> {
        sqlx::query(
            "UPDATE macros SET description = $2, embedding = coalesce($3, embedding), is_dirty = 0, updated_at = $4,
                storyline_count = (SELECT count(*) FROM macro_storylines WHERE macro_id = $1)
             WHERE macro_id = $1",
        )
        .bind(macro_id)
        .bind(description)
        .bind(encode_embedding(embedding))
        .bind(micros(at))
        .execute(&self.pool)
        .await?;
        Ok(())
    }
}
