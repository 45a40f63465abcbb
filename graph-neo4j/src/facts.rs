//! [`cosmo_core::graph::FactStore`] on Neo4j: `(:Fact)` nodes linked `-[:about]->` the nodes
//! they are about, `-[:stated_in]->` their Sources and `-[:supersedes]->` the fact they
//! replaced. Every write takes the user's fact lock (`facts/lock_user`) first in its
//! transaction, so the one-live-value rule and supersession hold under concurrent
//! writers, as SQLite's `BEGIN IMMEDIATE` makes them.

use async_trait::async_trait;
use chrono::{DateTime, Utc};
use cosmo_core::domain::{
    Actor, Fact, FactWrite, Lifecycle, LifecycleEvent, MemoryKind, MemoryState, NewFact, TtlPolicy,
};
use cosmo_core::graph::{FactStore, GraphError, GraphResult};
use neo4rs::{Row, Txn};

use super::bolt::{Props, embedding, list, opt, string_column, strings_column};
use super::cypher::{Statement, facts as fx};
use super::lifecycle::record_events;
use super::rows::bind_lifecycle;
use super::{Neo4jGraph, finish, txn_rows};

/// A fact from a row with `fact`, `about`, `source_keys` and `supersedes` columns.
pub(crate) fn fact(row: &Row) -> GraphResult<Fact> {
    let p = Props::from_row(row, "fact")?;
    let sorted = |name| -> GraphResult<Vec<String>> {
        let mut keys = strings_column(row, name)?;
        keys.sort_unstable();
        keys.dedup();
        Ok(keys)
    };
    Ok(Fact {
        fact_id: p.string("fact_id")?,
        user_id: p.string("user_id")?,
        text: p.string("text")?,
        category: p.opt_string("category")?,
        key: p.opt_string("fact_key")?,
        value: p.opt_string("value")?,
        is_active: p.bool("is_active")?,
        valid_from: p.time("valid_from")?,
        said_at: p
            .opt_time("said_at")?
            .map_or_else(|| p.time("valid_from"), Ok)?,
        valid_to: p.opt_time("valid_to")?,
        confirmed: p.bool("confirmed")?,
        supersedes: sorted("supersedes")?.into_iter().next(),
        about: sorted("about")?,
        source_keys: sorted("source_keys")?,
        embedding: p.embedding("embedding")?,
        lifecycle: p.lifecycle()?,
    })
}

/// Runs a statement returning fact rows.
pub(super) async fn facts_in(txn: &mut Txn, q: neo4rs::Query) -> GraphResult<Vec<Fact>> {
    txn_rows(txn, q).await?.iter().map(fact).collect()
}

/// One fact by id (`facts/get`, or `facts/locked` to write-lock it first).
pub(super) async fn fact_in(
    txn: &mut Txn,
    statement: &'static Statement,
    fact_id: &str,
) -> GraphResult<Option<Fact>> {
    let q = statement.bind().p("fact_id", fact_id).query()?;
    Ok(facts_in(txn, q).await?.pop())
}

fn not_found(fact_id: &str) -> GraphError {
    GraphError::NotFound(format!("fact {fact_id}"))
}

async fn lock_user(txn: &mut Txn, user_id: &str) -> GraphResult<()> {
    let q = fx::LOCK_USER.bind().p("user_id", user_id);
    txn_rows(txn, q.query()?).await.map(drop)
}

/// The live fact equal to `f`: the same structured slot, or the same free text.
async fn live_match(txn: &mut Txn, f: &NewFact) -> GraphResult<Option<Fact>> {
    let q = match (&f.category, &f.key) {
        (Some(category), Some(key)) => fx::LIVE_SLOT
            .bind()
            .p("user_id", f.user_id.as_str())
            .p("category", category.as_str())
            .p("fact_key", key.as_str()),
        _ => fx::LIVE_TEXT
            .bind()
            .p("user_id", f.user_id.as_str())
            .p("text", f.text.as_str()),
    };
    Ok(facts_in(txn, q.query()?).await?.pop())
}

/// Ends a fact's validity (soft delete).
async fn end(txn: &mut Txn, fact_id: &str, at: DateTime<Utc>) -> GraphResult<()> {
    let q = fx::END.bind().p("fact_id", fact_id).p("at", at);
    txn_rows(txn, q.query()?).await.map(drop)
}

/// `facts/create.cypher`: a new live fact with the lifecycle defaults of a new memory.
pub(crate) fn create_query(f: &NewFact) -> GraphResult<neo4rs::Query> {
    use crate::words;
    let b = words::bind(fx::CREATE.bind(), words::TEXT, &f.text);
    let b = words::bind(b, words::VALUE, f.value.as_deref().unwrap_or_default());
    let q = b
        .p("fact_id", f.fact_id.as_str())
        .p("user_id", f.user_id.as_str())
        .p("text", f.text.as_str())
        .p("category", opt(f.category.as_deref()))
        .p("fact_key", opt(f.key.as_deref()))
        .p("value", opt(f.value.as_deref()))
        .p("embedding", embedding(f.embedding.as_deref()))
        .p("at", f.at);
    bind_lifecycle(q, &Lifecycle::new(f.confidence, TtlPolicy::Decay, f.at)).query()
}

/// Creates a live fact with its links: only to the user's own nodes and the Sources
/// they may read.
async fn insert(txn: &mut Txn, f: &NewFact, supersedes: Option<&str>) -> GraphResult<Fact> {
    txn_rows(txn, create_query(f)?).await?;
    let id = f.fact_id.as_str();
    let links = [
        fx::ABOUT
            .bind()
            .p("entity_keys", list(f.about.iter().map(String::as_str))),
        fx::CITE.bind().p(
            "source_keys",
            list(f.source_keys.iter().map(String::as_str)),
        ),
    ];
    for q in links {
        txn_rows(txn, q.p("fact_id", id).query()?).await?;
    }
    if let Some(old) = supersedes {
        let q = fx::SUPERSEDE.bind().p("fact_id", id).p("supersedes", old);
        txn_rows(txn, q.query()?).await?;
    }
    fact_in(txn, &fx::GET, id)
        .await?
        .ok_or_else(|| GraphError::Backend(anyhow::anyhow!("fact {id} vanished")))
}

async fn store(txn: &mut Txn, f: &NewFact) -> GraphResult<FactWrite> {
    lock_user(txn, &f.user_id).await?;
    Ok(match live_match(txn, f).await? {
        Some(existing) if existing.value == f.value && existing.text == f.text => {
            FactWrite::Unchanged { existing }
        }
        Some(existing) if f.key.is_some() && f.confidence < existing.lifecycle.confidence => {
            FactWrite::KeptExisting { existing }
        }
        Some(existing) if f.key.is_some() => {
            end(txn, &existing.fact_id, f.at).await?;
            let fact = insert(txn, f, Some(&existing.fact_id)).await?;
            FactWrite::Stored {
                fact,
                superseded: Some(existing.fact_id),
            }
        }
        // Free text: the same text again is unchanged (matched above); anything else
        // is a new fact.
        _ => FactWrite::Stored {
            fact: insert(txn, f, None).await?,
            superseded: None,
        },
    })
}

pub(super) async fn superseded_by(txn: &mut Txn, fact_id: &str) -> GraphResult<Option<String>> {
    let q = fx::SUPERSEDED_BY.bind().p("fact_id", fact_id);
    let rows = txn_rows(txn, q.query()?).await?;
    rows.first()
        .map(|r| string_column(r, "fact_id"))
        .transpose()
        .map(Option::flatten)
}

async fn correct(txn: &mut Txn, fact_id: &str, f: &NewFact) -> GraphResult<Fact> {
    lock_user(txn, &f.user_id).await?;
    let old = fact_in(txn, &fx::LOCKED, fact_id)
        .await?
        .filter(|old| old.user_id == f.user_id)
        .ok_or_else(|| not_found(fact_id))?;
    if !old.is_active {
        return Err(GraphError::Conflict(
            match superseded_by(txn, fact_id).await? {
                Some(by) => format!("fact {fact_id} was already superseded by {by}"),
                None => format!("fact {fact_id} is no longer live"),
            },
        ));
    }
    let new = f.correcting(&old);
    // One live value per slot: a free-text fact corrected into a held slot is refused
    // (the live value is the one to correct).
    if new.takes_a_slot_from(&old)
        && let Some(holder) = live_match(txn, &new).await?
    {
        return Err(GraphError::Conflict(new.slot_taken(&holder.fact_id)));
    }
    end(txn, fact_id, f.at).await?;
    insert(txn, &new, Some(fact_id)).await
}

async fn confirm(txn: &mut Txn, fact_id: &str, at: DateTime<Utc>) -> GraphResult<Fact> {
    let user_id = fact_in(txn, &fx::GET, fact_id)
        .await?
        .ok_or_else(|| not_found(fact_id))?
        .user_id;
    lock_user(txn, &user_id).await?;
    let fact = fact_in(txn, &fx::LOCKED, fact_id)
        .await?
        .ok_or_else(|| not_found(fact_id))?;
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
    let q = fx::CONFIRM
        .bind()
        .p("fact_id", fact_id)
        .p("state", state.as_str())
        .p("at", at);
    txn_rows(txn, q.query()?).await?;
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
        record_events(txn, &[&event]).await?;
    }
    fact_in(txn, &fx::GET, fact_id)
        .await?
        .ok_or_else(|| not_found(fact_id))
}

#[async_trait]
impl FactStore for Neo4jGraph {
    async fn store_fact(&self, f: &NewFact) -> GraphResult<FactWrite> {
        self.retrying(|| async {
            let mut txn = self.begin().await?;
            let result = store(&mut txn, f).await;
            finish(txn, result).await
        })
        .await
    }

    async fn correct_fact(&self, fact_id: &str, f: &NewFact) -> GraphResult<Fact> {
        self.retrying(|| async {
            let mut txn = self.begin().await?;
            let result = correct(&mut txn, fact_id, f).await;
            finish(txn, result).await
        })
        .await
    }

    async fn confirm_fact(&self, fact_id: &str, at: DateTime<Utc>) -> GraphResult<Fact> {
        self.retrying(|| async {
            let mut txn = self.begin().await?;
            let result = confirm(&mut txn, fact_id, at).await;
            finish(txn, result).await
        })
        .await
    }
}
