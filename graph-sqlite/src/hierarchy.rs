//! Storyline and Macro promotion and refresh on SQLite.

use async_trait::async_trait;
use chrono::{DateTime, Utc};
use cosmo_core::domain::{Macro, SourceBrief, Storyline};
use cosmo_core::graph::{
    GraphResult, HierarchyStore, MacroCandidateAnchor, StorylineCandidateAnchor, StorylineRules,
};
use cosmo_core::query_file;
use sqlx::Row;
use sqlx::sqlite::SqliteRow;

use super::{SqliteGraph, encode_embedding, micros, time};

/// Sources about an anchor that none of its Storylines includes yet.
const UNCOVERED: &str = query_file!("hierarchy/uncovered_sources.sql");

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
        let rows = sqlx::query(query_file!("hierarchy/storyline_promotion_candidates.sql"))
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
        let rows = sqlx::query(query_file!("hierarchy/dirty_storylines.sql"))
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
        let rows = sqlx::query(query_file!("hierarchy/storyline_briefs.sql"))
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
        sqlx::query(query_file!("hierarchy/refresh_storyline.sql"))
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
        let rows = sqlx::query(query_file!("hierarchy/macro_promotion_candidates.sql"))
            .bind(micros(first_before))
            .bind(limit as i64)
            .fetch_all(&self.pool)
            .await?;
        let mut out = Vec::with_capacity(rows.len());
        for r in &rows {
            let anchor_key: String = r.try_get("entity_key")?;
            let storylines = sqlx::query(query_file!("hierarchy/anchor_storylines.sql"))
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
        let rows = sqlx::query(query_file!("hierarchy/dirty_macros.sql"))
            .bind(limit as i64)
            .fetch_all(&self.pool)
            .await?;
        Ok(rows
            .iter()
            .map(super::storylines::macro_from_row)
            .collect::<sqlx::Result<_>>()?)
    }

    async fn macro_storylines(&self, macro_id: &str) -> GraphResult<Vec<Storyline>> {
        let rows = sqlx::query(query_file!("hierarchy/macro_storylines.sql"))
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
        sqlx::query(query_file!("hierarchy/refresh_macro.sql"))
            .bind(macro_id)
            .bind(description)
            .bind(encode_embedding(embedding))
            .bind(micros(at))
            .execute(&self.pool)
            .await?;
        Ok(())
    }
}
