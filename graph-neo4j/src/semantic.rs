//! Reading semantic nodes, relationships and mentions; the owner Person.

use async_trait::async_trait;
use chrono::{DateTime, Utc};
use cosmo_core::domain::{Lifecycle, Mention, Relationship, SemanticNode, names};
use cosmo_core::graph::{GraphError, GraphResult, SemanticStore};
use cosmo_core::ids;
use neo4rs::Query;

use super::bolt::{int, string_column};
use super::cypher::{owner, reads};
use super::rows::bind_lifecycle;
use super::{Neo4jGraph, decode, finish, txn_rows};

/// `owner/create.cypher`: the owner Person from the profile's full name.
pub(super) fn owner_create_query(
    key: &str,
    user_id: &str,
    full_name: &str,
    at: DateTime<Utc>,
) -> GraphResult<Query> {
    let b = super::words::bind(owner::CREATE.bind(), super::words::NAME, full_name)
        .p("entity_key", key)
        .p("user_id", user_id)
        .p("canonical_name", names::canonical_person(full_name))
        .p("name", full_name)
        .p("at", at);
    bind_lifecycle(b, &Lifecycle::owner(at)).query()
}

#[async_trait]
impl SemanticStore for Neo4jGraph {
    /// Creates the owner Person, promotes an extracted Person of the same canonical name
    /// to owner, or renames the owner; refuses a rename onto another existing Person.
    async fn upsert_owner(
        &self,
        user_id: &str,
        full_name: &str,
        at: DateTime<Utc>,
    ) -> GraphResult<SemanticNode> {
        let canonical = names::canonical_person(full_name);
        let key = self
            .retrying(|| async {
                let mut txn = self.begin().await?;
                let result = async {
                    let q = owner::LOOKUP
                        .bind()
                        .p("user_id", user_id)
                        .p("canonical_name", canonical.as_str());
                    let rows = txn_rows(&mut txn, q.query()?).await?;
                    let (owner, namesake) = match rows.first() {
                        Some(r) => (string_column(r, "owner_key")?, string_column(r, "namesake_key")?),
                        None => (None, None),
                    };
                    let l = Lifecycle::owner(at);
                    match (owner, namesake) {
                        (Some(owner), Some(namesake)) if owner != namesake => Err(GraphError::Conflict(format!(
                            "a different Person named \"{canonical}\" already exists in {user_id}'s graph"
                        ))),
                        (Some(key), _) | (None, Some(key)) => {
                            let b = owner::PROMOTE.bind();
                            let q = super::words::bind(b, super::words::NAME, full_name)
                                .p("entity_key", key.as_str())
                                .p("user_id", user_id)
                                .p("canonical_name", canonical.as_str())
                                .p("name", full_name)
                                .p("state", l.state.as_str())
                                .p("salience", l.salience)
                                .p("confidence", l.confidence)
                                .p("ttl_policy", l.ttl_policy.as_str())
                                .p("at", at);
                            txn_rows(&mut txn, q.query()?).await?;
                            Ok(key)
                        }
                        (None, None) => {
                            let key = ids::owner_key(user_id);
                            let q = owner_create_query(&key, user_id, full_name, at)?;
                            txn_rows(&mut txn, q).await?;
                            Ok(key)
                        }
                    }
                }
                .await;
                finish(txn, result).await
            })
            .await?;
        self.node(&key)
            .await?
            .ok_or_else(|| GraphError::NotFound(format!("owner of {user_id}")))
    }

    async fn owner(&self, user_id: &str) -> GraphResult<Option<SemanticNode>> {
        let rows = self
            .rows(owner::GET.bind().p("user_id", user_id).query()?)
            .await?;
        rows.first().map(decode::node).transpose()
    }

    async fn node(&self, key: &str) -> GraphResult<Option<SemanticNode>> {
        let rows = self
            .rows(reads::NODE.bind().p("entity_key", key).query()?)
            .await?;
        rows.first().map(decode::node).transpose()
    }

    async fn nodes_for_user(
        &self,
        user_id: &str,
        after: Option<&str>,
        limit: usize,
    ) -> GraphResult<Vec<SemanticNode>> {
        let q = reads::NODES_FOR_USER
            .bind()
            .p("user_id", user_id)
            .p("after", after.unwrap_or(""))
            .p("limit", int(limit));
        self.rows(q.query()?)
            .await?
            .iter()
            .map(decode::node)
            .collect()
    }

    async fn relationships_for_user(
        &self,
        user_id: &str,
        after: Option<&str>,
        limit: usize,
    ) -> GraphResult<Vec<Relationship>> {
        let q = reads::RELATIONSHIPS_FOR_USER
            .bind()
            .p("user_id", user_id)
            .p("after", after.unwrap_or(""))
            .p("limit", int(limit));
        self.rows(q.query()?)
            .await?
            .iter()
            .map(decode::relationship)
            .collect()
    }

    async fn mentions_for_user(&self, user_id: &str) -> GraphResult<Vec<Mention>> {
        let q = reads::MENTIONS_FOR_USER.bind().p("user_id", user_id);
        self.rows(q.query()?)
            .await?
            .iter()
            .map(|r| {
                let col = |name| {
                    string_column(r, name)?.ok_or_else(|| {
                        GraphError::Backend(anyhow::anyhow!("a mention without {name}"))
                    })
                };
                Ok(Mention {
                    source_key: col("source_key")?,
                    entity_key: col("entity_key")?,
                    user_id: col("user_id")?,
                })
            })
            .collect()
    }
}
