//! [`LinkStore`] on Neo4j: `(:Source)-[:precedes]->(:Source)` and
//! `(:Source)-[:caused]->(:Source)` (`cypher/links/`). Placing a Source in its thread
//! takes the owner's lock (`facts/lock_user`) first, so Sources joining one thread at
//! once are placed one after the other, as SQLite's `BEGIN IMMEDIATE` makes them.

use async_trait::async_trait;
use chrono::{DateTime, Utc};
use cosmo_core::domain::{CausalCandidate, NewCausalLink, SourceLink, SourceLinkKind};
use cosmo_core::graph::{GraphResult, LinkStore, MAX_CAUSAL_WINDOW};
use neo4rs::BoltType;

use super::bolt::{Props, bool_column, int, int_column, list, string_column, strings_column};
use super::cypher::{erasure as ex, facts as fx, links as lx};
use super::{Neo4jGraph, finish, txn_rows};

#[async_trait]
impl LinkStore for Neo4jGraph {
    async fn link_temporal(
        &self,
        entity_key: &str,
        thread_key: &str,
        at: DateTime<Utc>,
    ) -> GraphResult<bool> {
        self.retrying(|| async {
            let mut txn = self.begin().await?;
            let result = async {
                let q = lx::OWNER.bind().p("entity_key", entity_key);
                let Some(owner) = txn_rows(&mut txn, q.query()?).await?.into_iter().next() else {
                    return Ok(false);
                };
                let user_id = string_column(&owner, "user_id")?.unwrap_or_default();
                let q = fx::LOCK_USER.bind().p("user_id", user_id);
                txn_rows(&mut txn, q.query()?).await?;
                let old = string_column(&owner, "thread_key")?;
                if old.as_deref().is_some_and(|old| old != thread_key) {
                    // It leaves the thread it was in (who took part changed): that one
                    // closes over the gap.
                    let q = ex::BRIDGE_THREAD
                        .bind()
                        .p("source_key", entity_key)
                        .p("at", at);
                    txn_rows(&mut txn, q.query()?).await?;
                }
                let q = lx::JOIN
                    .bind()
                    .p("entity_key", entity_key)
                    .p("thread_key", thread_key);
                let Some(row) = txn_rows(&mut txn, q.query()?).await?.into_iter().next() else {
                    return Ok(false);
                };
                let joined = bool_column(&row, "joined")?;
                let q = lx::PLACE
                    .bind()
                    .p("entity_key", entity_key)
                    .p("thread_key", thread_key)
                    .p("joined", joined)
                    .p("at", at);
                txn_rows(&mut txn, q.query()?).await?;
                Ok(true)
            }
            .await;
            finish(txn, result).await
        })
        .await
    }

    async fn causal_candidates(
        &self,
        after: Option<&str>,
        window: usize,
        limit: usize,
    ) -> GraphResult<Vec<CausalCandidate>> {
        let q = lx::CAUSAL_CANDIDATES
            .bind()
            .p("after", after.unwrap_or(""))
            .p("window", int(window.min(MAX_CAUSAL_WINDOW)));
        self.scan(
            q,
            limit,
            |r| {
                Ok(CausalCandidate {
                    effect_key: string_column(r, "effect_key")?.unwrap_or_default(),
                    user_id: string_column(r, "user_id")?.unwrap_or_default(),
                    earlier: strings_column(r, "earlier")?,
                })
            },
            |r| r.user_id.as_str(),
        )
        .await
    }

    async fn save_causal(
        &self,
        effect_key: &str,
        links: &[NewCausalLink],
        at: DateTime<Utc>,
    ) -> GraphResult<u64> {
        let rows = links
            .iter()
            .filter(|l| l.effect_key == effect_key)
            .map(|l| {
                lx::SAVE_CAUSAL.row([
                    ("cause_key", BoltType::from(l.cause_key.as_str())),
                    ("confidence", BoltType::from(l.confidence)),
                    ("inferred_by", BoltType::from(l.inferred_by.as_str())),
                    ("evidence", BoltType::from(l.evidence.as_str())),
                ])
            })
            .collect::<GraphResult<Vec<_>>>()?;
        self.retrying(|| async {
            let mut txn = self.begin().await?;
            let result = async {
                let q = lx::SAVE_CAUSAL
                    .bind()
                    .p("effect_key", effect_key)
                    .p("at", at)
                    .p("rows", BoltType::List(rows.clone().into()));
                match txn_rows(&mut txn, q.query()?).await?.first() {
                    Some(row) => Ok(u64::try_from(int_column(row, "written")?).unwrap_or(0)),
                    None => Ok(0),
                }
            }
            .await;
            finish(txn, result).await
        })
        .await
    }

    async fn source_links(&self, keys: &[String]) -> GraphResult<Vec<SourceLink>> {
        if keys.is_empty() {
            return Ok(Vec::new());
        }
        let q = lx::OF_SOURCES
            .bind()
            .p("keys", list(keys.iter().map(String::as_str)));
        self.rows(q.query()?)
            .await?
            .iter()
            .map(|r| {
                let p = Props::from_row(r, "link")?;
                Ok(SourceLink {
                    kind: p.parse::<SourceLinkKind>("kind")?,
                    from_key: p.string("from_key")?,
                    to_key: p.string("to_key")?,
                    confidence: p.float("confidence")?,
                    inferred_by: p.opt_string("inferred_by")?,
                    evidence: p.opt_string("evidence")?,
                    created_at: p.time("created_at")?,
                })
            })
            .collect()
    }
}
