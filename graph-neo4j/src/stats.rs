//! A user's memory in numbers (`cypher/stats/`), counted as the SQLite store counts it:
//! text in characters (`size()` of a STRING counts Unicode characters, as SQLite's
//! `length()` of TEXT does), vectors at 4 bytes a dimension (the SQLite store's f32
//! BLOBs), whatever width Neo4j stores them at.

use std::str::FromStr;

use async_trait::async_trait;
use cosmo_core::domain::{
    ExtractionStatus, MemoryKind, MemoryStats, NodeKind, ProcessingStatus, SourceLinkKind, count,
};
use cosmo_core::graph::{GraphError, GraphResult, StatsStore};
use neo4rs::Row;

use super::Neo4jGraph;
use super::bolt::int_column;
use super::hierarchy::required;
use crate::cypher::{Statement, stats};

/// Bytes a stored vector dimension counts for (an f32).
const BYTES_PER_DIMENSION: i64 = 4;

impl Neo4jGraph {
    async fn stats_rows(&self, s: &'static Statement, user_id: &str) -> GraphResult<Vec<Row>> {
        self.rows(s.bind().p("user_id", user_id).query()?).await
    }
}

/// A column holding one of an enum's names.
fn parse<T: FromStr>(row: &Row, name: &str) -> GraphResult<T>
where
    T::Err: std::fmt::Display,
{
    required(row, name)?.parse().map_err(|e: T::Err| {
        GraphError::Backend(anyhow::anyhow!("memory_stats: column `{name}`: {e}"))
    })
}

fn add_storage(stats: &mut MemoryStats, row: &Row) -> GraphResult<()> {
    let dims = int_column(row, "vector_dims")?;
    stats.add_storage(
        int_column(row, "text_chars")?,
        dims.saturating_mul(BYTES_PER_DIMENSION),
    );
    Ok(())
}

#[async_trait]
impl StatsStore for Neo4jGraph {
    async fn memory_stats(&self, user_id: &str) -> GraphResult<MemoryStats> {
        let mut stats = MemoryStats::default();
        for r in &self.stats_rows(&stats::SOURCES, user_id).await? {
            let n = count(int_column(r, "memories")?);
            stats.memories.source.add(parse(r, "state")?, n);
            stats
                .sources_by_status
                .add(parse::<ProcessingStatus>(r, "status")?, n);
            add_storage(&mut stats, r)?;
        }
        for r in &self.stats_rows(&stats::NODES, user_id).await? {
            stats
                .memories
                .node_mut(parse::<NodeKind>(r, "kind")?)
                .add(parse(r, "state")?, count(int_column(r, "memories")?));
            stats.orphan_nodes += count(int_column(r, "orphans")?);
            add_storage(&mut stats, r)?;
        }
        for r in &self.stats_rows(&stats::RELATIONSHIPS, user_id).await? {
            let n = count(int_column(r, "memories")?);
            stats.memories.relationship.add(parse(r, "state")?, n);
            *stats
                .links
                .relationships_by_type
                .entry(required(r, "relationship_type")?)
                .or_default() += n;
            add_storage(&mut stats, r)?;
        }
        for r in &self.stats_rows(&stats::AGGREGATES, user_id).await? {
            let kind = parse::<MemoryKind>(r, "kind")?;
            let counts = stats.memories.kind_mut(kind).ok_or_else(|| {
                GraphError::Backend(anyhow::anyhow!("memory_stats: no counts for {kind}"))
            })?;
            counts.add(parse(r, "state")?, count(int_column(r, "memories")?));
            stats.inactive_facts += count(int_column(r, "inactive")?);
            add_storage(&mut stats, r)?;
        }
        for r in &self.stats_rows(&stats::EXTRACTIONS, user_id).await? {
            stats.extractions.add(
                parse::<ExtractionStatus>(r, "status")?,
                count(int_column(r, "extractions")?),
            );
        }
        for r in &self.stats_rows(&stats::MENTIONS, user_id).await? {
            stats.links.mentions += count(int_column(r, "mentions")?);
        }
        for r in &self.stats_rows(&stats::SOURCE_LINKS, user_id).await? {
            let n = count(int_column(r, "links")?);
            match parse::<SourceLinkKind>(r, "kind")? {
                SourceLinkKind::Temporal => stats.links.temporal += n,
                SourceLinkKind::Causal => stats.links.causal += n,
            }
        }
        Ok(stats)
    }
}
