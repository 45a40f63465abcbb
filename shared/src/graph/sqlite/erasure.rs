//! [`ErasureStore`] on SQLite. One `BEGIN IMMEDIATE` transaction per erasure; after it
//! commits, a `TRUNCATE` checkpoint moves the change into the database file and empties
//! the WAL, so (with `secure_delete` and FTS5 `secure-delete`) the erased text is left
//! in no page of either file.

use std::collections::BTreeSet;

use async_trait::async_trait;
use chrono::{DateTime, Utc};
use sqlx::{Sqlite, Transaction};

use super::consolidation::SYSTEM_AUTHOR;
use super::{SqliteGraph, micros};
use crate::domain::Erasure;
use crate::graph::{ErasureStore, GraphResult};

type Tx = Transaction<'static, Sqlite>;

fn json<'a>(keys: impl IntoIterator<Item = &'a String>) -> GraphResult<String> {
    let keys: Vec<&String> = keys.into_iter().collect();
    Ok(serde_json::to_string(&keys).map_err(anyhow::Error::from)?)
}

async fn strings(tx: &mut Tx, sql: &'static str, bind: &str) -> GraphResult<Vec<String>> {
    Ok(sqlx::query_scalar(sql)
        .bind(bind)
        .fetch_all(&mut **tx)
        .await?)
}

async fn exec(tx: &mut Tx, sql: &'static str, keys: &str) -> GraphResult<u64> {
    Ok(sqlx::query(sql)
        .bind(keys)
        .execute(&mut **tx)
        .await?
        .rows_affected())
}

async fn by_user(tx: &mut Tx, sql: &'static str, user_id: &str) -> GraphResult<u64> {
    Ok(sqlx::query(sql)
        .bind(user_id)
        .execute(&mut **tx)
        .await?
        .rows_affected())
}

async fn delete_events(tx: &mut Tx, keys: &BTreeSet<String>, out: &mut Erasure) -> GraphResult<()> {
    if !keys.is_empty() {
        out.events += exec(
            tx,
            "DELETE FROM lifecycle_events WHERE memory_key IN (SELECT value FROM json_each($1))",
            &json(keys)?,
        )
        .await?;
    }
    Ok(())
}

/// Deletes facts with the facts they superseded (their history); a fact that
/// superseded one of them loses the link (`ON DELETE SET NULL`).
async fn delete_fact_chains(tx: &mut Tx, roots: &[String], out: &mut Erasure) -> GraphResult<()> {
    if roots.is_empty() {
        return Ok(());
    }
    let ids: BTreeSet<String> = sqlx::query_scalar(
        "WITH RECURSIVE chain(fact_id) AS (
             SELECT value FROM json_each($1)
             UNION SELECT f.supersedes FROM facts f JOIN chain c ON c.fact_id = f.fact_id
             WHERE f.supersedes IS NOT NULL)
         SELECT fact_id FROM chain WHERE fact_id IN (SELECT fact_id FROM facts)",
    )
    .bind(json(roots)?)
    .fetch_all(&mut **tx)
    .await?
    .into_iter()
    .collect();
    out.facts += exec(
        tx,
        "DELETE FROM facts WHERE fact_id IN (SELECT value FROM json_each($1))",
        &json(&ids)?,
    )
    .await?;
    delete_events(tx, &ids, out).await
}

/// Deletes relationships with their notes and events.
async fn delete_relationships(
    tx: &mut Tx,
    keys: &BTreeSet<String>,
    out: &mut Erasure,
) -> GraphResult<()> {
    if keys.is_empty() {
        return Ok(());
    }
    let keys_json = json(keys)?;
    out.notes += exec(
        tx,
        "DELETE FROM notes WHERE owner_kind = 'relationship'
           AND owner_key IN (SELECT value FROM json_each($1))",
        &keys_json,
    )
    .await?;
    out.relationships += exec(
        tx,
        "DELETE FROM relationships WHERE rel_key IN (SELECT value FROM json_each($1))",
        &keys_json,
    )
    .await?;
    delete_events(tx, keys, out).await
}

/// Deletes nodes with everything hanging off them: relationships, notes, Storylines
/// and Macros anchored on them, and all their events.
async fn delete_nodes(tx: &mut Tx, keys: &BTreeSet<String>, out: &mut Erasure) -> GraphResult<()> {
    if keys.is_empty() {
        return Ok(());
    }
    let keys_json = json(keys)?;
    let rels: BTreeSet<String> = sqlx::query_scalar(
        "SELECT rel_key FROM relationships
         WHERE from_key IN (SELECT value FROM json_each($1)) OR to_key IN (SELECT value FROM json_each($1))",
    )
    .bind(&keys_json)
    .fetch_all(&mut **tx)
    .await?
    .into_iter()
    .collect();
    delete_relationships(tx, &rels, out).await?;
    let storylines: BTreeSet<String> = sqlx::query_scalar(
        "SELECT storyline_id FROM storylines WHERE anchor_key IN (SELECT value FROM json_each($1))",
    )
    .bind(&keys_json)
    .fetch_all(&mut **tx)
    .await?
    .into_iter()
    .collect();
    let macros: BTreeSet<String> = sqlx::query_scalar(
        "SELECT macro_id FROM macros WHERE anchor_key IN (SELECT value FROM json_each($1))",
    )
    .bind(&keys_json)
    .fetch_all(&mut **tx)
    .await?
    .into_iter()
    .collect();
    out.notes += exec(
        tx,
        "DELETE FROM notes WHERE owner_kind = 'node' AND owner_key IN (SELECT value FROM json_each($1))",
        &keys_json,
    )
    .await?;
    out.macros += exec(
        tx,
        "DELETE FROM macros WHERE macro_id IN (SELECT value FROM json_each($1))",
        &json(&macros)?,
    )
    .await?;
    out.storylines += exec(
        tx,
        "DELETE FROM storylines WHERE storyline_id IN (SELECT value FROM json_each($1))",
        &json(&storylines)?,
    )
    .await?;
    out.nodes += exec(
        tx,
        "DELETE FROM nodes WHERE entity_key IN (SELECT value FROM json_each($1))",
        &keys_json,
    )
    .await?;
    delete_events(tx, keys, out).await?;
    delete_events(tx, &storylines, out).await?;
    delete_events(tx, &macros, out).await
}

/// Erases one Source inside `tx` (see [`ErasureStore::erase_source`]).
async fn erase_source_in(tx: &mut Tx, key: &str, at: i64, out: &mut Erasure) -> GraphResult<bool> {
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
        // Their graph first: nothing of it needs recounting.
        let nodes: BTreeSet<String> = strings(
            &mut tx,
            "SELECT entity_key FROM nodes WHERE user_id = $1",
            user_id,
        )
        .await?
        .into_iter()
        .collect();
        let facts = strings(
            &mut tx,
            "SELECT fact_id FROM facts WHERE user_id = $1",
            user_id,
        )
        .await?;
        delete_fact_chains(&mut tx, &facts, &mut out).await?;
        delete_nodes(&mut tx, &nodes, &mut out).await?;
        // Whatever was not reachable from their nodes (nothing, normally).
        out.notes += by_user(&mut tx, "DELETE FROM notes WHERE user_id = $1", user_id).await?;
        out.relationships += by_user(
            &mut tx,
            "DELETE FROM relationships WHERE user_id = $1",
            user_id,
        )
        .await?;
        out.storylines += by_user(
            &mut tx,
            "DELETE FROM storylines WHERE user_id = $1",
            user_id,
        )
        .await?;
        out.macros += by_user(&mut tx, "DELETE FROM macros WHERE user_id = $1", user_id).await?;
        for sql in [
            "DELETE FROM mentions WHERE user_id = $1",
            "DELETE FROM derived_from WHERE user_id = $1",
            "DELETE FROM extractions WHERE user_id = $1",
        ] {
            by_user(&mut tx, sql, user_id).await?;
        }
        // Their own Sources: nobody else drew on one without other participants, so
        // those go at once; a team Source is erased as a single Source would be, so the
        // other participants' graphs drawn from it are cleaned and recounted.
        let solo = strings(
            &mut tx,
            "SELECT entity_key FROM sources s WHERE user_id = $1 AND NOT EXISTS (
                 SELECT 1 FROM source_participants p WHERE p.source_key = s.entity_key AND p.user_id <> $1)
             ORDER BY entity_key",
            user_id,
        )
        .await?;
        let facts = strings(
            &mut tx,
            "SELECT fact_id FROM fact_sources WHERE source_key IN (SELECT entity_key FROM sources WHERE user_id = $1)",
            user_id,
        )
        .await?;
        delete_fact_chains(&mut tx, &facts, &mut out).await?;
        out.sources += by_user(
            &mut tx,
            "DELETE FROM sources WHERE user_id = $1 AND NOT EXISTS (
                 SELECT 1 FROM source_participants p WHERE p.source_key = sources.entity_key AND p.user_id <> $1)",
            user_id,
        )
        .await?;
        out.source_keys.extend(solo);
        let team = strings(
            &mut tx,
            "SELECT entity_key FROM sources WHERE user_id = $1 ORDER BY entity_key",
            user_id,
        )
        .await?;
        let at = micros(at);
        for key in &team {
            erase_source_in(&mut tx, key, at, &mut out).await?;
        }
        // They leave other users' team Sources.
        sqlx::query(
            "UPDATE sources SET participants =
                (SELECT json_group_array(value) FROM json_each(sources.participants) WHERE value <> $1),
                updated_at = $2
             WHERE entity_key IN (SELECT source_key FROM source_participants WHERE user_id = $1)",
        )
        .bind(user_id)
        .bind(at)
        .execute(&mut *tx)
        .await?;
        out.events += sqlx::query("DELETE FROM lifecycle_events WHERE user_id = $1")
            .bind(user_id)
            .execute(&mut *tx)
            .await?
            .rows_affected();
        // Their id leaves the search indexes' change log too, and with it every other
        // entry: a process still holding their memories (any user's part that includes
        // a team Source of theirs) cannot catch up from a log that no longer reaches
        // back to where it stands, so it loads anew what it next searches. (Erasing a
        // user is rare; a reload costs about a second per 10⁴ Sources.)
        sqlx::query("DELETE FROM search_vector_log")
            .execute(&mut *tx)
            .await?;
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
