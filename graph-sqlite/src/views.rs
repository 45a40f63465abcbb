//! The views retrieval builds its results from: Source metadata and passages, the
//! Sources mentioning a node, the Storylines about it, the links around nodes.

use async_trait::async_trait;
use cosmo_core::domain::{
    MemoryState, Relationship, SourceMeta, SourcePassage, SourceType, Storyline,
};
use cosmo_core::graph::{GraphResult, ViewStore};
use cosmo_core::query_file;
use sqlx::Row;
use sqlx::sqlite::SqliteRow;

use super::storylines::storyline_from_row;
use super::{SqliteGraph, json, parse};

macro_rules! source_meta {
    ($($rest:literal),*) => {
        concat!(
            "SELECT s.entity_key, s.user_id, s.source_type, s.context_type, s.summary,
                coalesce(s.started_at, s.created_at) AS event_at, s.state FROM sources s ",
            $($rest),*
        )
    };
}

/// The keys without repeats, first occurrence kept.
fn distinct(keys: &[String]) -> Vec<&String> {
    let mut seen = std::collections::HashSet::new();
    keys.iter().filter(|k| seen.insert(*k)).collect()
}

fn meta_from_row(r: &SqliteRow) -> sqlx::Result<SourceMeta> {
    Ok(SourceMeta {
        entity_key: r.try_get("entity_key")?,
        user_id: r.try_get("user_id")?,
        source_type: parse::<SourceType>(r, "source_type")?,
        context_type: r.try_get("context_type")?,
        summary: r.try_get("summary")?,
        event_time: super::time(r, "event_at")?,
        state: parse::<MemoryState>(r, "state")?,
    })
}

#[async_trait]
impl ViewStore for SqliteGraph {
    async fn passages(&self, source_keys: &[String]) -> GraphResult<Vec<SourcePassage>> {
        let rows = sqlx::query(query_file!("views/passages.sql"))
            .bind(json(&distinct(source_keys))?)
            .fetch_all(&self.pool)
            .await?;
        rows.iter()
            .map(|r| {
                Ok(SourcePassage {
                    source_key: r.try_get("source_key")?,
                    ordinal: u32::try_from(r.try_get::<i64, _>("ordinal")?).unwrap_or(u32::MAX),
                    text: r.try_get("text")?,
                })
            })
            .collect::<sqlx::Result<_>>()
            .map_err(Into::into)
    }

    async fn source_metas(&self, keys: &[String]) -> GraphResult<Vec<SourceMeta>> {
        let rows = sqlx::query(source_meta!(
            "WHERE s.entity_key IN (SELECT value FROM json_each($1))"
        ))
        .bind(json(keys)?)
        .fetch_all(&self.pool)
        .await?;
        let mut metas = rows
            .iter()
            .map(meta_from_row)
            .collect::<sqlx::Result<Vec<_>>>()?;
        metas.sort_by_key(|m| keys.iter().position(|k| *k == m.entity_key));
        Ok(metas)
    }

    async fn relationships_of(
        &self,
        user_id: &str,
        node_keys: &[String],
        limit: usize,
    ) -> GraphResult<Vec<Relationship>> {
        let rows = sqlx::query(query_file!("views/relationships_of.sql"))
            .bind(user_id)
            .bind(json(node_keys)?)
            .bind(limit as i64)
            .fetch_all(&self.pool)
            .await?;
        self.relationships_with_notes(rows).await
    }

    async fn node_sources(&self, entity_key: &str, limit: usize) -> GraphResult<Vec<SourceMeta>> {
        let rows = sqlx::query(source_meta!(
            "JOIN mentions m ON m.source_key = s.entity_key
             WHERE m.entity_key = $1 ORDER BY event_at DESC, s.entity_key LIMIT $2"
        ))
        .bind(entity_key)
        .bind(limit as i64)
        .fetch_all(&self.pool)
        .await?;
        Ok(rows
            .iter()
            .map(meta_from_row)
            .collect::<sqlx::Result<_>>()?)
    }

    async fn storylines_about(&self, anchor_key: &str) -> GraphResult<Vec<Storyline>> {
        let rows = sqlx::query(query_file!("views/storylines_about.sql"))
            .bind(anchor_key)
            .fetch_all(&self.pool)
            .await?;
        Ok(rows
            .iter()
            .map(storyline_from_row)
            .collect::<sqlx::Result<_>>()?)
    }
}
