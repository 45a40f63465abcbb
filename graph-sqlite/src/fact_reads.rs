//! Facts read back: one, a user's (filtered), one explained with its chain, the weak ones.

use async_trait::async_trait;
use cosmo_core::domain::{Fact, FactExplanation, FactFilter, Weakness};
use cosmo_core::graph::{FactReadStore, GraphResult};
use cosmo_core::query_file;
use sqlx::Row;

use super::SqliteGraph;
use super::facts::{SUPERSEDED_BY, fact_in, with_links};
use super::hierarchy::brief;

#[async_trait]
impl FactReadStore for SqliteGraph {
    async fn fact(&self, fact_id: &str) -> GraphResult<Option<Fact>> {
        let mut tx = self.pool.begin().await?;
        let fact = fact_in(&mut tx, fact_id).await?;
        tx.commit().await?;
        Ok(fact)
    }

    async fn facts_for_user(
        &self,
        user_id: &str,
        filter: FactFilter,
        limit: usize,
    ) -> GraphResult<Vec<Fact>> {
        let mut tx = self.pool.begin().await?;
        let rows = sqlx::query(query_file!("fact_reads/facts_for_user.sql"))
            .bind(user_id)
            .bind(filter.include_inactive)
            .bind(filter.confirmed_only)
            .bind(limit as i64)
            .fetch_all(&mut *tx)
            .await?;
        let mut facts = Vec::with_capacity(rows.len());
        for r in &rows {
            facts.push(with_links(&mut tx, r).await?);
        }
        tx.commit().await?;
        Ok(facts)
    }

    async fn explain_fact(&self, fact_id: &str) -> GraphResult<Option<FactExplanation>> {
        let mut tx = self.pool.begin().await?;
        let Some(fact) = fact_in(&mut tx, fact_id).await? else {
            return Ok(None);
        };
        let mut superseded = Vec::new();
        let mut next = fact.supersedes.clone();
        while let Some(id) = next.take() {
            // A chain is acyclic by construction (each fact supersedes an older one);
            // the length guard keeps a corrupted one from looping.
            if superseded.len() > 1000 {
                break;
            }
            if let Some(old) = fact_in(&mut tx, &id).await? {
                next.clone_from(&old.supersedes);
                superseded.push(old);
            }
        }
        let superseded_by: Option<String> = sqlx::query_scalar(SUPERSEDED_BY)
            .bind(fact_id)
            .fetch_optional(&mut *tx)
            .await?;
        let source_rows = sqlx::query(query_file!("fact_reads/fact_sources_brief.sql"))
            .bind(fact_id)
            .fetch_all(&mut *tx)
            .await?;
        let about_rows = sqlx::query(query_file!("fact_reads/fact_about_named.sql"))
            .bind(fact_id)
            .fetch_all(&mut *tx)
            .await?;
        tx.commit().await?;
        Ok(Some(FactExplanation {
            fact,
            superseded,
            superseded_by,
            sources: source_rows.iter().map(brief).collect::<sqlx::Result<_>>()?,
            about: about_rows
                .iter()
                .map(|r| Ok((r.try_get("entity_key")?, r.try_get("name")?)))
                .collect::<sqlx::Result<_>>()?,
        }))
    }

    async fn weak_facts(
        &self,
        user_id: &str,
        weakness: Weakness,
        limit: usize,
    ) -> GraphResult<Vec<Fact>> {
        let mut tx = self.pool.begin().await?;
        let rows = sqlx::query(query_file!("fact_reads/weak_facts.sql"))
            .bind(user_id)
            .bind(weakness.salience_below)
            .bind(weakness.confidence_below)
            .bind(limit as i64)
            .fetch_all(&mut *tx)
            .await?;
        let mut facts = Vec::with_capacity(rows.len());
        for r in &rows {
            facts.push(with_links(&mut tx, r).await?);
        }
        tx.commit().await?;
        Ok(facts)
    }
}
