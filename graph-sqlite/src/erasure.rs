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

use super::deletions::{
    Tx, delete_events, delete_fact_chains, delete_nodes, delete_relationships, exec, json, strings,
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
    let exists: Option<String> =
        sqlx::query_scalar("SELECT entity_key FROM sources WHERE entity_key = $1")
            .bind(key)
            .fetch_optional(&mut **tx)
            .await?;
    if exists.is_none() {
        return Ok(false);
    }
    // What draws on it, before the links go.
    let mut touched_nodes: BTreeSet<String> = strings(
        tx,
        "SELECT entity_key FROM mentions WHERE source_key = $1
         UNION SELECT entity_key FROM derived_from WHERE source_key = $1
         UNION SELECT owner_key FROM notes WHERE source_id = $1 AND owner_kind = 'node'",
        key,
    )
    .await?
    .into_iter()
    .collect();
    let touched_rels: BTreeSet<String> = strings(
        tx,
        "SELECT rel_key FROM relationship_sources WHERE source_key = $1
         UNION SELECT owner_key FROM notes WHERE source_id = $1 AND owner_kind = 'relationship'",
        key,
    )
    .await?
    .into_iter()
    .collect();
    let touched_storylines: BTreeSet<String> = strings(
        tx,
        "SELECT storyline_id FROM storyline_sources WHERE source_key = $1",
        key,
    )
    .await?
    .into_iter()
    .collect();
    let facts = strings(
        tx,
        "SELECT fact_id FROM fact_sources WHERE source_key = $1",
        key,
    )
    .await?;

    // Notes taken from it, and insights consolidated from it (by note id; an insight
    // recorded before note ids were kept is matched by its author on the node).
    out.notes += sqlx::query("DELETE FROM notes WHERE source_id = $1")
        .bind(key)
        .execute(&mut **tx)
        .await?
        .rows_affected();
    out.notes += sqlx::query(
        "DELETE FROM notes WHERE owner_kind = 'node' AND EXISTS (
             SELECT 1 FROM derived_from d WHERE d.source_key = $1 AND d.entity_key = notes.owner_key
               AND (d.note_id = notes.note_id
                    OR (d.note_id IS NULL AND notes.source_id IS NULL AND notes.added_by = $2)))",
    )
    .bind(key)
    .bind(SYSTEM_AUTHOR)
    .execute(&mut **tx)
    .await?
    .rows_affected();
    delete_fact_chains(tx, &facts, out).await?;

    // Its thread closes over the gap. The Source; its links go with it (foreign keys),
    // its index entries by trigger.
    super::links::bridge_temporal(tx, key, at).await?;
    out.sources += sqlx::query("DELETE FROM sources WHERE entity_key = $1")
        .bind(key)
        .execute(&mut **tx)
        .await?
        .rows_affected();
    out.source_keys.push(key.to_owned());
    delete_events(tx, &BTreeSet::from([key.to_owned()]), out).await?;

    // Nodes and relationships no other Source supports.
    let orphans: BTreeSet<String> = sqlx::query_scalar(
        "SELECT entity_key FROM nodes n
         WHERE entity_key IN (SELECT value FROM json_each($1)) AND is_owner = 0
           AND NOT EXISTS (SELECT 1 FROM mentions m WHERE m.entity_key = n.entity_key)
           AND NOT EXISTS (SELECT 1 FROM derived_from d WHERE d.entity_key = n.entity_key)",
    )
    .bind(json(&touched_nodes)?)
    .fetch_all(&mut **tx)
    .await?
    .into_iter()
    .collect();
    delete_nodes(tx, &orphans, out).await?;
    touched_nodes.retain(|k| !orphans.contains(k));
    let orphan_rels: BTreeSet<String> = sqlx::query_scalar(
        "SELECT rel_key FROM relationships r
         WHERE rel_key IN (SELECT value FROM json_each($1))
           AND NOT EXISTS (SELECT 1 FROM relationship_sources s WHERE s.rel_key = r.rel_key)",
    )
    .bind(json(&touched_rels)?)
    .fetch_all(&mut **tx)
    .await?
    .into_iter()
    .collect();
    delete_relationships(tx, &orphan_rels, out).await?;

    // Storylines: recount, drop the empty ones; then their Macros.
    let storylines_json = json(&touched_storylines)?;
    let empty_storylines: BTreeSet<String> = sqlx::query_scalar(
        "SELECT storyline_id FROM storylines s WHERE storyline_id IN (SELECT value FROM json_each($1))
           AND NOT EXISTS (SELECT 1 FROM storyline_sources x WHERE x.storyline_id = s.storyline_id)",
    )
    .bind(&storylines_json)
    .fetch_all(&mut **tx)
    .await?
    .into_iter()
    .collect();
    let touched_macros: BTreeSet<String> = sqlx::query_scalar(
        "SELECT macro_id FROM macro_storylines WHERE storyline_id IN (SELECT value FROM json_each($1))",
    )
    .bind(&storylines_json)
    .fetch_all(&mut **tx)
    .await?
    .into_iter()
    .collect();
    out.storylines += exec(
        tx,
        "DELETE FROM storylines WHERE storyline_id IN (SELECT value FROM json_each($1))",
        &json(&empty_storylines)?,
    )
    .await?;
    delete_events(tx, &empty_storylines, out).await?;
    out.descriptions_cleared += sqlx::query(
        "UPDATE storylines SET
            source_count = (SELECT count(*) FROM storyline_sources x WHERE x.storyline_id = storylines.storyline_id),
            first_source_at = (SELECT min(coalesce(s.started_at, s.created_at)) FROM storyline_sources x
                JOIN sources s ON s.entity_key = x.source_key WHERE x.storyline_id = storylines.storyline_id),
            last_source_at = (SELECT max(coalesce(s.started_at, s.created_at)) FROM storyline_sources x
                JOIN sources s ON s.entity_key = x.source_key WHERE x.storyline_id = storylines.storyline_id),
            description = '', embedding = NULL, is_dirty = 1, updated_at = $2
         WHERE storyline_id IN (SELECT value FROM json_each($1))",
    )
    .bind(&storylines_json)
    .bind(at)
    .execute(&mut **tx)
    .await?
    .rows_affected();
    let macros_json = json(&touched_macros)?;
    let empty_macros: BTreeSet<String> = sqlx::query_scalar(
        "SELECT macro_id FROM macros m WHERE macro_id IN (SELECT value FROM json_each($1))
           AND NOT EXISTS (SELECT 1 FROM macro_storylines x WHERE x.macro_id = m.macro_id)",
    )
    .bind(&macros_json)
    .fetch_all(&mut **tx)
    .await?
    .into_iter()
    .collect();
    out.macros += exec(
        tx,
        "DELETE FROM macros WHERE macro_id IN (SELECT value FROM json_each($1))",
        &json(&empty_macros)?,
    )
    .await?;
    delete_events(tx, &empty_macros, out).await?;
    out.descriptions_cleared += sqlx::query(
        "UPDATE macros SET
            storyline_count = (SELECT count(*) FROM macro_storylines x WHERE x.macro_id = macros.macro_id),
            total_source_count = (SELECT coalesce(sum(s.source_count), 0) FROM macro_storylines x
                JOIN storylines s ON s.storyline_id = x.storyline_id WHERE x.macro_id = macros.macro_id),
            first_event_at = (SELECT min(s.first_source_at) FROM macro_storylines x
                JOIN storylines s ON s.storyline_id = x.storyline_id WHERE x.macro_id = macros.macro_id),
            last_event_at = (SELECT max(s.last_source_at) FROM macro_storylines x
                JOIN storylines s ON s.storyline_id = x.storyline_id WHERE x.macro_id = macros.macro_id),
            description = '', embedding = NULL, is_dirty = 1, updated_at = $2
         WHERE macro_id IN (SELECT value FROM json_each($1))",
    )
    .bind(&macros_json)
    .bind(at)
    .execute(&mut **tx)
    .await?
    .rows_affected();

    // Surviving nodes: counters from what is left, descriptions cleared.
    let nodes_json = json(&touched_nodes)?;
    exec(
        tx,
        "DELETE FROM node_days WHERE entity_key IN (SELECT value FROM json_each($1))",
        &nodes_json,
    )
    .await?;
    exec(
        tx,
        "INSERT OR IGNORE INTO node_days (entity_key, day)
         SELECT m.entity_key, date(coalesce(s.started_at, s.created_at) / 1000000, 'unixepoch')
         FROM mentions m JOIN sources s ON s.entity_key = m.source_key
         WHERE m.entity_key IN (SELECT value FROM json_each($1))",
        &nodes_json,
    )
    .await?;
    out.descriptions_cleared += sqlx::query(
        "UPDATE nodes SET
            source_count = (SELECT count(*) FROM mentions m WHERE m.entity_key = nodes.entity_key),
            first_mentioned_at = (SELECT min(coalesce(s.started_at, s.created_at)) FROM mentions m
                JOIN sources s ON s.entity_key = m.source_key WHERE m.entity_key = nodes.entity_key),
            last_mentioned_at = (SELECT max(coalesce(s.started_at, s.created_at)) FROM mentions m
                JOIN sources s ON s.entity_key = m.source_key WHERE m.entity_key = nodes.entity_key),
            distinct_source_days = (SELECT count(*) FROM node_days d WHERE d.entity_key = nodes.entity_key),
            has_meso = EXISTS (SELECT 1 FROM storylines s WHERE s.anchor_key = nodes.entity_key),
            has_macro = EXISTS (SELECT 1 FROM macros m WHERE m.anchor_key = nodes.entity_key),
            description = '', embedding = NULL, is_dirty = 1, updated_at = $2
         WHERE entity_key IN (SELECT value FROM json_each($1))",
    )
    .bind(&nodes_json)
    .bind(at)
    .execute(&mut **tx)
    .await?
    .rows_affected();
    // Anchors of Storylines/Macros that went (their own node may be untouched).
    sqlx::query(
        "UPDATE nodes SET
            has_meso = EXISTS (SELECT 1 FROM storylines s WHERE s.anchor_key = nodes.entity_key),
            has_macro = EXISTS (SELECT 1 FROM macros m WHERE m.anchor_key = nodes.entity_key)
         WHERE (has_meso = 1 AND NOT EXISTS (SELECT 1 FROM storylines s WHERE s.anchor_key = nodes.entity_key))
            OR (has_macro = 1 AND NOT EXISTS (SELECT 1 FROM macros m WHERE m.anchor_key = nodes.entity_key))",
    )
    .execute(&mut **tx)
    .await?;
    let rels_json = json(touched_rels.difference(&orphan_rels))?;
    out.descriptions_cleared += sqlx::query(
        "UPDATE relationships SET description = '', notes_embedding = NULL, is_dirty = 1, updated_at = $2
         WHERE rel_key IN (SELECT value FROM json_each($1))",
    )
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
