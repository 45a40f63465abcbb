//! Description consolidation and note cleanup on Neo4j.

use async_trait::async_trait;
use chrono::{DateTime, Utc};
use cosmo_core::domain::{Relationship, SemanticNode};
use cosmo_core::graph::{ConsolidationStore, GraphResult};
use neo4rs::{BoltType, Txn};

use super::bolt::{embedding, int, int_column, list, strings_column};
use super::cypher::{Statement, maintenance as mt};
use super::extraction::count;
use super::hierarchy::required;
use super::{Neo4jGraph, decode, finish, txn_rows};

/// The targets (node or relationship keys) holding expired notes, and those notes' ids,
/// as many as fit in `budget` notes in all: the rows of `remove_*_notes.cypher`.
pub fn removal_rows(
    statement: &Statement,
    expired: Vec<(String, Vec<String>)>,
    mut budget: usize,
) -> GraphResult<Vec<BoltType>> {
    let mut rows = Vec::new();
    for (target, mut ids) in expired {
        if budget == 0 {
            break;
        }
        ids.truncate(budget);
        if ids.is_empty() {
            continue;
        }
        budget -= ids.len();
        rows.push(statement.row([("target", target.into()), ("note_ids", list(ids))])?);
    }
    Ok(rows)
}

/// One kind of note holder (nodes, then relationships): finds up to `budget` expired
/// notes and removes them; returns how many went.
async fn remove_expired(
    txn: &mut Txn,
    find: &'static Statement,
    remove: &'static Statement,
    now: DateTime<Utc>,
    budget: usize,
    key_space: &str,
) -> GraphResult<usize> {
    if budget == 0 {
        return Ok(0);
    }
    let q = find
        .bind()
        .p("now", now)
        .p("limit", int(budget))
        .p("key_space", key_space);
    let expired = txn_rows(txn, q.query()?)
        .await?
        .iter()
        .map(|r| Ok((required(r, "target")?, strings_column(r, "note_ids")?)))
        .collect::<GraphResult<Vec<_>>>()?;
    let rows = removal_rows(remove, expired, budget)?;
    if rows.is_empty() {
        return Ok(0);
    }
    let q = remove
        .bind()
        .p("rows", BoltType::List(rows.into()))
        .p("now", now);
    count(txn, q.query()?, "removed").await
}

#[async_trait]
impl ConsolidationStore for Neo4jGraph {
    async fn dirty_nodes(&self, limit: usize) -> GraphResult<Vec<SemanticNode>> {
        let q = mt::DIRTY_NODES.bind();
        self.scan(q, limit, decode::node, |r| r.user_id.as_str())
            .await
    }

    async fn dirty_relationships(&self, limit: usize) -> GraphResult<Vec<Relationship>> {
        let q = mt::DIRTY_RELATIONSHIPS.bind();
        self.scan(q, limit, decode::relationship, |r| r.user_id.as_str())
            .await
    }

    async fn consolidate_node(
        &self,
        key: &str,
        description: &str,
        vector: Option<&[f32]>,
        at: DateTime<Utc>,
    ) -> GraphResult<()> {
        let b = mt::CONSOLIDATE_NODE.bind();
        let q = super::words::bind(b, super::words::DESCRIPTION, description)
            .p("entity_key", key)
            .p("description", description)
            .p("embedding", embedding(vector))
            .p("at", at);
        self.run(q.query()?).await
    }

    async fn consolidate_relationship(
        &self,
        key: &str,
        description: &str,
        notes_embedding: Option<&[f32]>,
        at: DateTime<Utc>,
    ) -> GraphResult<()> {
        let q = mt::CONSOLIDATE_RELATIONSHIP
            .bind()
            .p("rel_key", key)
            .p("description", description)
            .p("notes_embedding", embedding(notes_embedding))
            .p("at", at);
        self.run(q.query()?).await
    }

    /// Nodes first, then relationships, `limit` notes at most in all, in one transaction.
    async fn delete_expired_notes(&self, now: DateTime<Utc>, limit: usize) -> GraphResult<usize> {
        if limit == 0 {
            return Ok(0);
        }
        self.retrying(|| async {
            let mut txn = self.begin().await?;
            let result = async {
                let on_nodes = remove_expired(
                    &mut txn,
                    &mt::EXPIRED_NODE_NOTES,
                    &mt::REMOVE_NODE_NOTES,
                    now,
                    limit,
                    self.key_space.as_deref().unwrap_or(""),
                )
                .await?;
                let on_relationships = remove_expired(
                    &mut txn,
                    &mt::EXPIRED_RELATIONSHIP_NOTES,
                    &mt::REMOVE_RELATIONSHIP_NOTES,
                    now,
                    limit.saturating_sub(on_nodes),
                    self.key_space.as_deref().unwrap_or(""),
                )
                .await?;
                Ok(on_nodes + on_relationships)
            }
            .await;
            finish(txn, result).await
        })
        .await
    }

    async fn count_expired_notes(&self, now: DateTime<Utc>) -> GraphResult<u64> {
        let q = mt::COUNT_EXPIRED_NOTES
            .bind()
            .p("now", now)
            .p("key_space", self.key_space.as_deref().unwrap_or(""));
        let rows = self.rows(q.query()?).await?;
        let expired = rows.first().map_or(Ok(0), |r| int_column(r, "expired"))?;
        Ok(expired.max(0) as u64)
    }
}
