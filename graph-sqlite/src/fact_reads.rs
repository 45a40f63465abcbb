//! Facts read back: one, a user's (filtered), one explained with its chain, the weak ones.

use async_trait::async_trait;
use cosmo_core::domain::{Fact, FactExplanation, FactFilter, Weakness};
use cosmo_core::graph::{FactReadStore, GraphResult};
use sqlx::Row;

use super::SqliteGraph;
use super::facts::{fact_in, with_links};
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
        let rows = sqlx::query(
            "SELECT * FROM facts WHERE user_id = $1 AND (is_active = 1 OR $2) AND (confirmed = 1 OR NOT $3)
             ORDER BY valid_from DESC, fact_id LIMIT $4",
        )
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
        let superseded_by: Option<String> =
            sqlx::query_scalar("SELECT fact_id FROM facts WHERE supersedes = $1 LIMIT 1")
                .bind(fact_id)
                .fetch_optional(&mut *tx)
                .await?;
        let source_rows = sqlx::query(
            "SELECT s.entity_key, s.user_id, s.summary, coalesce(s.started_at, s.created_at) AS event_at
             FROM fact_sources f JOIN sources s ON s.entity_key = f.source_key
             WHERE f.fact_id = $1 ORDER BY event_at, s.entity_key",
        )
        .bind(fact_id)
        .fetch_all(&mut *tx)
        .await?;
        let about_rows = sqlx::query(
            "SELECT n.entity_key, n.name FROM fact_about a JOIN nodes n ON n.entity_key = a.entity_key
             WHERE a.fact_id = $1 ORDER BY n.name, n.entity_key",
        )
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
        let rows = sqlx::query(
            "SELECT * FROM facts WHERE user_id = $1 AND is_active = 1 AND confirmed = 0
               AND state <> 'archived' AND (salience < $2 OR confidence < $3)
             ORDER BY salience, confidence, fact_id LIMIT $4",
        )
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
