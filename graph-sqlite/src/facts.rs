//! [`FactStore`] on SQLite: every write is one `BEGIN IMMEDIATE` transaction, so the
//! one-live-value rule and supersession hold under concurrent writers (the partial
//! unique index `facts_one_live_value` backs the rule up).

use async_trait::async_trait;
use chrono::{DateTime, Utc};
use cosmo_core::domain::{
    Actor, Fact, FactWrite, Lifecycle, LifecycleEvent, MemoryKind, MemoryState, NewFact, TtlPolicy,
};
use cosmo_core::graph::{FactStore, GraphError, GraphResult};
use cosmo_core::query_file;
use sqlx::Row;
use sqlx::sqlite::SqliteRow;

use super::lifecycle::record_event;
use super::{SqliteGraph, decode_embedding, encode_embedding, lifecycle, micros, opt_time, time};

type Tx = crate::WriteTx;

/// The fact that superseded fact `$1`, if any.
pub(super) const SUPERSEDED_BY: &str = query_file!("facts/superseded_by.sql");

pub(super) async fn fact_in(
    tx: &mut sqlx::SqliteConnection,
    fact_id: &str,
) -> GraphResult<Option<Fact>> {
    let row = sqlx::query(query_file!("facts/fact.sql"))
        .bind(fact_id)
        .fetch_optional(&mut *tx)
        .await?;
    match row {
        Some(r) => Ok(Some(with_links(tx, &r).await?)),
        None => Ok(None),
    }
}

pub(super) async fn with_links(
    tx: &mut sqlx::SqliteConnection,
    r: &SqliteRow,
) -> GraphResult<Fact> {
    let fact_id: String = r.try_get("fact_id")?;
    let about: Vec<String> = sqlx::query_scalar(query_file!("facts/fact_about.sql"))
        .bind(&fact_id)
        .fetch_all(&mut *tx)
        .await?;
    let source_keys: Vec<String> = sqlx::query_scalar(query_file!("facts/fact_sources.sql"))
        .bind(&fact_id)
        .fetch_all(&mut *tx)
        .await?;
    Ok(Fact {
        user_id: r.try_get("user_id")?,
        text: r.try_get("text")?,
        category: r.try_get("category")?,
        key: r.try_get("fact_key")?,
        value: r.try_get("value")?,
        is_active: r.try_get("is_active")?,
        valid_from: time(r, "valid_from")?,
        said_at: opt_time(r, "said_at")?.map_or_else(|| time(r, "valid_from"), Ok)?,
        valid_to: opt_time(r, "valid_to")?,
        confirmed: r.try_get("confirmed")?,
        supersedes: r.try_get("supersedes")?,
        embedding: decode_embedding(r, "embedding")?,
        lifecycle: lifecycle(r)?,
        about,
        source_keys,
        fact_id,
    })
}

/// The live fact equal to `f`: the same structured slot, or the same free text.
async fn live_match(tx: &mut Tx, f: &NewFact) -> GraphResult<Option<Fact>> {
    let id: Option<String> = match (&f.category, &f.key) {
        (Some(category), Some(key)) => {
            sqlx::query_scalar(query_file!("facts/live_in_slot.sql"))
                .bind(&f.user_id)
                .bind(category)
                .bind(key)
                .fetch_optional(&mut **tx)
                .await?
        }
        _ => {
            sqlx::query_scalar(query_file!("facts/live_with_text.sql"))
                .bind(&f.user_id)
                .bind(&f.text)
                .fetch_optional(&mut **tx)
                .await?
        }
    };
    match id {
        Some(id) => fact_in(tx, &id).await,
        None => Ok(None),
    }
}

/// Ends a fact's validity (soft delete).
async fn end(tx: &mut Tx, fact_id: &str, at: DateTime<Utc>) -> GraphResult<()> {
    sqlx::query(query_file!("facts/end_fact.sql"))
        .bind(fact_id)
        .bind(micros(at))
        .execute(&mut **tx)
        .await?;
    Ok(())
}

async fn insert(tx: &mut Tx, f: &NewFact, supersedes: Option<&str>) -> GraphResult<Fact> {
    let l = Lifecycle::new(f.confidence, TtlPolicy::Decay, f.at);
    sqlx::query(query_file!("facts/insert_fact.sql"))
        .bind(&f.fact_id)
        .bind(&f.user_id)
        .bind(&f.text)
        .bind(&f.category)
        .bind(&f.key)
        .bind(&f.value)
        .bind(micros(f.at))
        .bind(supersedes)
        .bind(encode_embedding(f.embedding.as_deref()))
        .bind(l.salience)
        .bind(l.state.as_str())
        .bind(l.confidence)
        .bind(l.decay_gradient)
        .bind(l.ttl_policy.as_str())
        .execute(&mut **tx)
        .await?;
    let keys = |v: &[String]| serde_json::to_string(v).map_err(anyhow::Error::from);
    // Links only to the user's own nodes and the Sources they can read.
    sqlx::query(query_file!("facts/link_about.sql"))
        .bind(&f.fact_id)
        .bind(&f.user_id)
        .bind(keys(&f.about)?)
        .execute(&mut **tx)
        .await?;
    sqlx::query(query_file!("facts/link_sources.sql"))
        .bind(&f.fact_id)
        .bind(&f.user_id)
        .bind(keys(&f.source_keys)?)
        .execute(&mut **tx)
        .await?;
    sqlx::query(query_file!("facts/said_at.sql"))
        .bind(&f.fact_id)
        .execute(&mut **tx)
        .await?;
    fact_in(tx, &f.fact_id)
        .await?
        .ok_or_else(|| GraphError::Backend(anyhow::anyhow!("fact {} vanished", f.fact_id)))
}

#[async_trait]
impl FactStore for SqliteGraph {
    async fn store_fact(&self, f: &NewFact) -> GraphResult<FactWrite> {
        let mut tx = self.begin().await?;
        let outcome = match live_match(&mut tx, f).await? {
            Some(existing) if existing.value == f.value && existing.text == f.text => {
                FactWrite::Unchanged { existing }
            }
            Some(existing) if f.key.is_some() && f.confidence < existing.lifecycle.confidence => {
                FactWrite::KeptExisting { existing }
            }
            Some(existing) if f.key.is_some() => {
                end(&mut tx, &existing.fact_id, f.at).await?;
                let fact = insert(&mut tx, f, Some(&existing.fact_id)).await?;
                FactWrite::Stored {
                    fact,
                    superseded: Some(existing.fact_id),
                }
            }
            // Free text: the same text again is unchanged (matched above); anything
            // else is a new fact.
            _ => FactWrite::Stored {
                fact: insert(&mut tx, f, None).await?,
                superseded: None,
            },
        };
        tx.commit().await?;
        Ok(outcome)
    }

    async fn correct_fact(&self, fact_id: &str, f: &NewFact) -> GraphResult<Fact> {
        let mut tx = self.begin().await?;
        let old = fact_in(&mut tx, fact_id)
            .await?
            .filter(|old| old.user_id == f.user_id)
            .ok_or_else(|| GraphError::NotFound(format!("fact {fact_id}")))?;
        if !old.is_active {
            let by: Option<String> = sqlx::query_scalar(SUPERSEDED_BY)
                .bind(fact_id)
                .fetch_optional(&mut *tx)
                .await?;
            return Err(GraphError::Conflict(match by {
                Some(by) => format!("fact {fact_id} was already superseded by {by}"),
                None => format!("fact {fact_id} is no longer live"),
            }));
        }
        let new = f.correcting(&old);
        // One live value per slot: a free-text fact corrected into a held slot is
        // refused (the live value is the one to correct).
        if new.takes_a_slot_from(&old)
            && let Some(holder) = live_match(&mut tx, &new).await?
        {
            return Err(GraphError::Conflict(new.slot_taken(&holder.fact_id)));
        }
        end(&mut tx, fact_id, f.at).await?;
        let fact = insert(&mut tx, &new, Some(fact_id)).await?;
        tx.commit().await?;
        Ok(fact)
    }

    async fn confirm_fact(&self, fact_id: &str, at: DateTime<Utc>) -> GraphResult<Fact> {
        let mut tx = self.begin().await?;
        let fact = fact_in(&mut tx, fact_id)
            .await?
            .ok_or_else(|| GraphError::NotFound(format!("fact {fact_id}")))?;
        if !fact.is_active {
            return Err(GraphError::Conflict(format!(
                "fact {fact_id} was superseded; confirm the fact that replaced it"
            )));
        }
        let l = &fact.lifecycle;
        let state = match l.state {
            MemoryState::Candidate | MemoryState::Archived if !l.pinned => MemoryState::Active,
            s => s,
        };
        sqlx::query(query_file!("facts/confirm_fact.sql"))
            .bind(fact_id)
            .bind(state.as_str())
            .bind(micros(at))
            .execute(&mut *tx)
            .await?;
        if state != l.state {
            let event = LifecycleEvent {
                memory_kind: MemoryKind::Fact,
                memory_key: fact_id.to_owned(),
                user_id: fact.user_id.clone(),
                previous_state: l.state,
                new_state: state,
                reason: "confirmed".into(),
                actor: Actor::User,
                at,
            };
            record_event(&mut tx, &event).await?;
        }
        let fact = fact_in(&mut tx, fact_id)
            .await?
            .ok_or_else(|| GraphError::NotFound(format!("fact {fact_id}")))?;
        tx.commit().await?;
        Ok(fact)
    }
}
