//! [`ErasureStore`] on SQLite. One `BEGIN IMMEDIATE` transaction per erasure; after it
//! commits, a `TRUNCATE` checkpoint moves the change into the database file and empties
//! the WAL, so (with `secure_delete` and FTS5 `secure-delete`) the erased text is left
//! in no page of either file.
//!
//! A Source's erasure is here (`erase_source_in`, which erasing a user repeats for each
//! of their team Sources); a user's is in `erase_user.rs`; the deletions every erasure
//! shares are in `deletions.rs`, as on Neo4j.

use std::collections::BTreeSet;

use async_trait::async_trait;
use chrono::{DateTime, Utc};
use cosmo_core::domain::Erasure;
use cosmo_core::graph::{ErasureStore, GraphResult};
use cosmo_core::query_file;

use super::deletions::{
    DELETE_MACROS, DELETE_STORYLINES, Tx, delete_events, delete_fact_chains, delete_nodes,
    delete_relationships, exec, json, strings,
};
use super::episodic::SYSTEM_AUTHOR;
use super::erase_user::erase_user_in;
use super::{SqliteGraph, micros};

/// Erases one Source inside `tx` (see [`ErasureStore::erase_source`]).
pub(super) async fn erase_source_in(
    tx: &mut Tx,
    key: &str,
    at: i64,
    out: &mut Erasure,
) -> GraphResult<bool> {
    let exists: Option<String> = sqlx::query_scalar(query_file!("erasure/source_exists.sql"))
        .bind(key)
        .fetch_optional(&mut **tx)
        .await?;
    if exists.is_none() {
        return Ok(false);
    }
    // What draws on it, before the links go.
    let mut touched_nodes: BTreeSet<String> =
        strings(tx, query_file!("erasure/nodes_drawing_on_source.sql"), key)
            .await?
            .into_iter()
            .collect();
    let touched_rels: BTreeSet<String> = strings(
        tx,
        query_file!("erasure/relationships_drawing_on_source.sql"),
        key,
    )
    .await?
    .into_iter()
    .collect();
    let touched_storylines: BTreeSet<String> =
        strings(tx, query_file!("erasure/storylines_of_source.sql"), key)
            .await?
            .into_iter()
            .collect();
    let facts = strings(tx, query_file!("erasure/facts_of_source.sql"), key).await?;

    // Notes taken from it, and insights consolidated from it (by note id; an insight
    // recorded before note ids were kept is matched by its author on the node).
    out.notes += sqlx::query(query_file!("erasure/delete_notes_from_source.sql"))
        .bind(key)
        .execute(&mut **tx)
        .await?
        .rows_affected();
    out.notes += sqlx::query(query_file!("erasure/delete_insights_from_source.sql"))
        .bind(key)
        .bind(SYSTEM_AUTHOR)
        .execute(&mut **tx)
        .await?
        .rows_affected();
    delete_fact_chains(tx, &facts, out).await?;

    // Its thread closes over the gap. The Source; its links go with it (foreign keys),
    // its index entries by trigger.
    super::links::bridge_temporal(tx, key, at).await?;
    out.sources += sqlx::query(query_file!("erasure/delete_source.sql"))
        .bind(key)
        .execute(&mut **tx)
        .await?
        .rows_affected();
    out.source_keys.push(key.to_owned());
    delete_events(tx, &BTreeSet::from([key.to_owned()]), out).await?;

    // Nodes and relationships no other Source supports.
    let orphans: BTreeSet<String> = sqlx::query_scalar(query_file!("erasure/orphan_nodes.sql"))
        .bind(json(&touched_nodes)?)
        .fetch_all(&mut **tx)
        .await?
        .into_iter()
        .collect();
    delete_nodes(tx, &orphans, out).await?;
    touched_nodes.retain(|k| !orphans.contains(k));
    let orphan_rels: BTreeSet<String> =
        sqlx::query_scalar(query_file!("erasure/orphan_relationships.sql"))
            .bind(json(&touched_rels)?)
            .fetch_all(&mut **tx)
            .await?
            .into_iter()
            .collect();
    delete_relationships(tx, &orphan_rels, out).await?;

    // Storylines: recount, drop the empty ones; then their Macros.
    let storylines_json = json(&touched_storylines)?;
    let empty_storylines: BTreeSet<String> =
        sqlx::query_scalar(query_file!("erasure/empty_storylines.sql"))
            .bind(&storylines_json)
            .fetch_all(&mut **tx)
            .await?
            .into_iter()
            .collect();
    let touched_macros: BTreeSet<String> =
        sqlx::query_scalar(query_file!("erasure/macros_of_storylines.sql"))
            .bind(&storylines_json)
            .fetch_all(&mut **tx)
            .await?
            .into_iter()
            .collect();
    out.storylines += exec(tx, DELETE_STORYLINES, &json(&empty_storylines)?).await?;
    delete_events(tx, &empty_storylines, out).await?;
    out.descriptions_cleared += sqlx::query(query_file!("erasure/recount_storylines.sql"))
        .bind(&storylines_json)
        .bind(at)
        .execute(&mut **tx)
        .await?
        .rows_affected();
    let macros_json = json(&touched_macros)?;
    let empty_macros: BTreeSet<String> =
        sqlx::query_scalar(query_file!("erasure/empty_macros.sql"))
            .bind(&macros_json)
            .fetch_all(&mut **tx)
            .await?
            .into_iter()
            .collect();
    out.macros += exec(tx, DELETE_MACROS, &json(&empty_macros)?).await?;
    delete_events(tx, &empty_macros, out).await?;
    out.descriptions_cleared += sqlx::query(query_file!("erasure/recount_macros.sql"))
        .bind(&macros_json)
        .bind(at)
        .execute(&mut **tx)
        .await?
        .rows_affected();

    // Surviving nodes: counters from what is left, descriptions cleared.
    let nodes_json = json(&touched_nodes)?;
    exec(tx, query_file!("erasure/delete_node_days.sql"), &nodes_json).await?;
    exec(tx, query_file!("erasure/insert_node_days.sql"), &nodes_json).await?;
    out.descriptions_cleared += sqlx::query(query_file!("erasure/recount_nodes.sql"))
        .bind(&nodes_json)
        .bind(at)
        .execute(&mut **tx)
        .await?
        .rows_affected();
    // Anchors of Storylines/Macros that went (their own node may be untouched).
    sqlx::query(query_file!("erasure/refresh_anchor_flags.sql"))
        .execute(&mut **tx)
        .await?;
    let rels_json = json(touched_rels.difference(&orphan_rels))?;
    out.descriptions_cleared +=
        sqlx::query(query_file!("erasure/clear_relationship_descriptions.sql"))
            .bind(&rels_json)
            .bind(at)
            .execute(&mut **tx)
            .await?
            .rows_affected();
    Ok(true)
}

impl SqliteGraph {
    /// Empties the WAL into the database file (best effort: a long-lived reader can
    /// keep it from truncating; the frames are then overwritten by later writes).
    async fn checkpoint(&self) {
        if let Err(e) = sqlx::query("PRAGMA wal_checkpoint(TRUNCATE)")
            .execute(&self.pool)
            .await
        {
            tracing::warn!(error = %e, "WAL checkpoint after erasure failed");
        }
    }
}

#[async_trait]
impl ErasureStore for SqliteGraph {
    async fn erase_source(
        &self,
        entity_key: &str,
        at: DateTime<Utc>,
    ) -> GraphResult<Option<Erasure>> {
        let mut tx = self.begin().await?;
        let mut out = Erasure::default();
        if !erase_source_in(&mut tx, entity_key, micros(at), &mut out).await? {
            return Ok(None);
        }
        tx.commit().await?;
        self.checkpoint().await;
        Ok(Some(out))
    }

    async fn erase_user(&self, user_id: &str, at: DateTime<Utc>) -> GraphResult<Erasure> {
        let mut tx = self.begin().await?;
        let mut out = Erasure::default();
        erase_user_in(&mut tx, user_id, micros(at), &mut out).await?;
        tx.commit().await?;
        // This process holds none of their vectors any more.
        self.vectors.forget_user(user_id);
        self.texts.forget_user(user_id);
        self.checkpoint().await;
        Ok(out)
    }

    async fn erase_fact(&self, fact_id: &str) -> GraphResult<Option<Erasure>> {
        let mut tx = self.begin().await?;
        let mut out = Erasure::default();
        delete_fact_chains(&mut tx, &[fact_id.to_owned()], &mut out).await?;
        if out.facts == 0 {
            return Ok(None);
        }
        tx.commit().await?;
        self.checkpoint().await;
        Ok(Some(out))
    }
}
