//! Reading facts: one, a user's (newest first), the weak ones (weakest first), and
//! `explain_fact` — the fact, the chain of facts it replaced, what replaced it, its
//! Sources and the nodes it is about, read in one transaction.

use async_trait::async_trait;
use cosmo_core::domain::{Fact, FactExplanation, FactFilter, Weakness};
use cosmo_core::graph::{FactReadStore, GraphResult};

use super::bolt::{Props, int, int_column, string_column};
use super::cypher::facts as fx;
use super::facts::{fact, fact_in, superseded_by};
use super::hierarchy::required;
use super::{Neo4jGraph, decode, finish, txn_rows};

async fn explain(txn: &mut neo4rs::Txn, fact_id: &str) -> GraphResult<Option<FactExplanation>> {
    let Some(explained) = fact_in(txn, &fx::GET, fact_id).await? else {
        return Ok(None);
    };
    let q = fx::CHAIN.bind().p("fact_id", fact_id);
    let mut chain = txn_rows(txn, q.query()?)
        .await?
        .iter()
        .map(|r| Ok((int_column(r, "depth")?, fact(r)?)))
        .collect::<GraphResult<Vec<_>>>()?;
    // Newest first: the fact it replaced, then the one that one replaced, …
    chain.sort_by_key(|(depth, _)| *depth);
    let superseded_by = superseded_by(txn, fact_id).await?;
    let q = fx::SOURCES.bind().p("fact_id", fact_id);
    let mut sources = txn_rows(txn, q.query()?)
        .await?
        .iter()
        .map(|r| decode::brief(&Props::from_row(r, "brief")?))
        .collect::<GraphResult<Vec<_>>>()?;
    sources.sort_by(|a, b| (a.event_time, &a.entity_key).cmp(&(b.event_time, &b.entity_key)));
    let q = fx::ABOUT_NAMES.bind().p("fact_id", fact_id);
    let mut about = txn_rows(txn, q.query()?)
        .await?
        .iter()
        .map(|r| {
            let name = string_column(r, "name")?.unwrap_or_default();
            Ok((required(r, "entity_key")?, name))
        })
        .collect::<GraphResult<Vec<(String, String)>>>()?;
    // By display name, then key.
    about.sort_by(|a, b| (&a.1, &a.0).cmp(&(&b.1, &b.0)));
    Ok(Some(FactExplanation {
        fact: explained,
        superseded: chain.into_iter().map(|(_, f)| f).collect(),
        superseded_by,
        sources,
        about,
    }))
}

#[async_trait]
impl FactReadStore for Neo4jGraph {
    async fn fact(&self, fact_id: &str) -> GraphResult<Option<Fact>> {
        let q = fx::GET.bind().p("fact_id", fact_id);
        self.rows(q.query()?).await?.first().map(fact).transpose()
    }

    async fn facts_for_user(
        &self,
        user_id: &str,
        filter: FactFilter,
        limit: usize,
    ) -> GraphResult<Vec<Fact>> {
        let q = fx::FOR_USER
            .bind()
            .p("user_id", user_id)
            .p("include_inactive", filter.include_inactive)
            .p("confirmed_only", filter.confirmed_only)
            .p("limit", int(limit));
        let mut facts = self
            .rows(q.query()?)
            .await?
            .iter()
            .map(fact)
            .collect::<GraphResult<Vec<_>>>()?;
        // Newest first, then by id.
        facts.sort_by(|a, b| {
            b.valid_from
                .cmp(&a.valid_from)
                .then_with(|| a.fact_id.cmp(&b.fact_id))
        });
        Ok(facts)
    }

    async fn explain_fact(&self, fact_id: &str) -> GraphResult<Option<FactExplanation>> {
        self.retrying(|| async {
            let mut txn = self.begin().await?;
            let result = explain(&mut txn, fact_id).await;
            finish(txn, result).await
        })
        .await
    }

    async fn weak_facts(
        &self,
        user_id: &str,
        weakness: Weakness,
        limit: usize,
    ) -> GraphResult<Vec<Fact>> {
        let q = fx::WEAK
            .bind()
            .p("user_id", user_id)
            .p("salience_below", weakness.salience_below)
            .p("confidence_below", weakness.confidence_below)
            .p("limit", int(limit));
        let mut facts = self
            .rows(q.query()?)
            .await?
            .iter()
            .map(fact)
            .collect::<GraphResult<Vec<_>>>()?;
        // The weakest first: by salience, then confidence, then id.
        facts.sort_by(|a, b| {
            let (x, y) = (&a.lifecycle, &b.lifecycle);
            x.salience
                .total_cmp(&y.salience)
                .then_with(|| x.confidence.total_cmp(&y.confidence))
                .then_with(|| a.fact_id.cmp(&b.fact_id))
        });
        Ok(facts)
    }
}
