//! A user's memory in numbers ([`cosmo_core::graph::StatsStore::memory_stats`]): one read
//! transaction (one snapshot of the file), one grouped query per kind of memory, each
//! reading the user's rows through an index on `user_id`.
//!
//! Text is measured in characters (`length()` of TEXT counts code points), as Neo4j's
//! `size()` measures it; vectors in bytes of their little-endian f32 BLOBs, which is 4
//! bytes a dimension, as the Neo4j store computes it.

use std::str::FromStr;

use async_trait::async_trait;
use cosmo_core::domain::{
    ExtractionStatus, MemoryKind, MemoryStats, NodeKind, ProcessingStatus, SourceLinkKind, count,
};
use cosmo_core::graph::{GraphError, GraphResult, StatsStore};
use cosmo_core::query_file;
use sqlx::Row;
use sqlx::sqlite::SqliteRow;

use super::SqliteGraph;

/// Sources by state and status; passages' text from `source_passages`, their vectors
/// packed in the Source's `search_docs` row.
const SOURCES: &str = query_file!("stats/sources.sql");

/// Nodes by kind and state; an orphan is touched by no relationship either way.
const NODES: &str = query_file!("stats/nodes.sql");

const RELATIONSHIPS: &str = query_file!("stats/relationships.sql");

/// Storylines, Macros and facts by state (`inactive`: facts superseded or retracted).
const AGGREGATES: &str = query_file!("stats/aggregates.sql");

const EXTRACTIONS: &str = query_file!("stats/extractions.sql");

const MENTIONS: &str = query_file!("stats/mentions.sql");

const SOURCE_LINKS: &str = query_file!("stats/source_links.sql");

fn parse<T: FromStr>(row: &SqliteRow, col: &str) -> GraphResult<T>
where
    T::Err: std::error::Error + Send + Sync + 'static,
{
    Ok(super::parse::<T>(row, col)?)
}

fn add_storage(stats: &mut MemoryStats, row: &SqliteRow) -> GraphResult<()> {
    let text: Option<i64> = row.try_get("text_chars")?;
    let vectors: Option<i64> = row.try_get("vector_bytes")?;
    stats.add_storage(text.unwrap_or(0), vectors.unwrap_or(0));
    Ok(())
}

#[async_trait]
impl StatsStore for SqliteGraph {
    async fn memory_stats(&self, user_id: &str) -> GraphResult<MemoryStats> {
        let mut stats = MemoryStats::default();
        // A deferred transaction that only reads: every query sees the same snapshot.
        let mut tx = self.pool.begin().await?;
        let rows = sqlx::query(SOURCES)
            .bind(user_id)
            .fetch_all(&mut *tx)
            .await?;
        for r in &rows {
            let n = count(r.try_get("n")?);
            stats.memories.source.add(parse(r, "state")?, n);
            stats
                .sources_by_status
                .add(parse::<ProcessingStatus>(r, "processing_status")?, n);
            add_storage(&mut stats, r)?;
        }
        let rows = sqlx::query(NODES).bind(user_id).fetch_all(&mut *tx).await?;
        for r in &rows {
            let n = count(r.try_get("n")?);
            stats
                .memories
                .node_mut(parse::<NodeKind>(r, "kind")?)
                .add(parse(r, "state")?, n);
            stats.orphan_nodes += count(r.try_get("orphans")?);
            add_storage(&mut stats, r)?;
        }
        let rows = sqlx::query(RELATIONSHIPS)
            .bind(user_id)
            .fetch_all(&mut *tx)
            .await?;
        for r in &rows {
            let n = count(r.try_get("n")?);
            stats.memories.relationship.add(parse(r, "state")?, n);
            *stats
                .links
                .relationships_by_type
                .entry(r.try_get("relationship_type")?)
                .or_default() += n;
            add_storage(&mut stats, r)?;
        }
        let rows = sqlx::query(AGGREGATES)
            .bind(user_id)
            .fetch_all(&mut *tx)
            .await?;
        for r in &rows {
            let kind = parse::<MemoryKind>(r, "kind")?;
            let counts = stats.memories.kind_mut(kind).ok_or_else(|| {
                GraphError::Backend(anyhow::anyhow!("memory_stats: no counts for {kind}"))
            })?;
            counts.add(parse(r, "state")?, count(r.try_get("n")?));
            stats.inactive_facts += count(r.try_get("inactive")?);
            add_storage(&mut stats, r)?;
        }
        let rows = sqlx::query(EXTRACTIONS)
            .bind(user_id)
            .fetch_all(&mut *tx)
            .await?;
        for r in &rows {
            stats.extractions.add(
                parse::<ExtractionStatus>(r, "status")?,
                count(r.try_get("n")?),
            );
        }
        let mentions: i64 = sqlx::query_scalar(MENTIONS)
            .bind(user_id)
            .fetch_one(&mut *tx)
            .await?;
        stats.links.mentions = count(mentions);
        let rows = sqlx::query(SOURCE_LINKS)
            .bind(user_id)
            .fetch_all(&mut *tx)
            .await?;
        for r in &rows {
            let n = count(r.try_get("n")?);
            match parse::<SourceLinkKind>(r, "kind")? {
                SourceLinkKind::Temporal => stats.links.temporal += n,
                SourceLinkKind::Causal => stats.links.causal += n,
            }
        }
        tx.commit().await?;
        Ok(stats)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every query seeks the user's rows through an index, never walks a table.
    #[tokio::test]
    async fn every_query_seeks_an_index_on_the_user() {
        for sql in [
            SOURCES,
            NODES,
            RELATIONSHIPS,
            AGGREGATES,
            EXTRACTIONS,
            MENTIONS,
            SOURCE_LINKS,
        ] {
            let plan = crate::query_plan(sql, &["alex"]).await;
            // A `SCAN` walks a whole table or index; every step must be a `SEARCH`.
            assert!(
                plan.iter().all(|d| !d.starts_with("SCAN")),
                "{sql}\n{plan:#?}"
            );
            assert!(plan.iter().any(|d| d.starts_with("SEARCH")), "{plan:#?}");
        }
    }
}
