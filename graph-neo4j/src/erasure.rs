//! Erasing one Source on Neo4j, mirroring `graph-sqlite/src/erasure.rs` step by step, in one
//! transaction: the Source is write-locked first, so an extraction, a consolidation or a
//! fact citing it serialises with the erasure and finds it gone. Notes taken from it
//! leave the parallel note lists, the links drawn from it lose it from their provenance
//! (`source_keys`), and whatever no other Source supports goes; what drew on it is
//! recounted, its description cleared and marked dirty.

use async_trait::async_trait;
use chrono::{DateTime, Utc};
use cosmo_core::domain::Erasure;
use cosmo_core::graph::{ErasureStore, GraphResult};
use neo4rs::{BoltType, Txn};

use super::bolt::{bool_column, int_column};
use super::cypher::erasure as ex;
use super::deletions::{
    Keys, counted, delete_events, delete_fact_chains, delete_macros, delete_nodes,
    delete_relationships, delete_sources, delete_storylines, key_list, keys, one_row,
};
use super::episodic::SYSTEM_AUTHOR;
use super::erase_user::erase_user_in;
use super::hierarchy::required;
use super::{Neo4jGraph, finish, txn_rows};

/// Runs a statement over a set of keys (none: nothing to do) and returns the keys it
/// selects.
async fn select(
    txn: &mut Txn,
    q: impl FnOnce(BoltType) -> GraphResult<neo4rs::Query>,
    keys: &Keys,
) -> GraphResult<Keys> {
    if keys.is_empty() {
        return Ok(Keys::new());
    }
    self::keys(&one_row(txn, q(key_list(keys))?).await?, "keys")
}

/// Erases one Source inside `txn` (see [`cosmo_core::graph::ErasureStore::erase_source`]);
/// `false` if it does not exist.
pub(super) async fn erase_source_in(
    txn: &mut Txn,
    key: &str,
    at: DateTime<Utc>,
    out: &mut Erasure,
) -> GraphResult<bool> {
    // Locks the Source, then what draws on it, before the links go.
    let q = ex::SOURCE_LINKS.bind().p("source_key", key);
    let Some(links) = txn_rows(txn, q.query()?).await?.into_iter().next() else {
        return Ok(false);
    };
    let users = keys(&links, "user_ids")?;
    let mut touched_nodes = keys(&links, "mentioned")?;
    touched_nodes.extend(keys(&links, "derived")?);
    let touched_storylines = keys(&links, "storylines")?;
    let facts = keys(&links, "facts")?;

    // Notes taken from it, its place in link provenance, insights consolidated from it.
    let q = ex::REMOVE_NODE_NOTES
        .bind()
        .p("user_ids", key_list(&users))
        .p("source_key", key);
    let row = one_row(txn, q.query()?).await?;
    touched_nodes.extend(keys(&row, "keys")?);
    out.notes += int_column(&row, "removed")? as u64;
    let q = ex::UNLINK_RELATIONSHIPS
        .bind()
        .p("user_ids", key_list(&users))
        .p("source_key", key);
    let row = one_row(txn, q.query()?).await?;
    let touched_rels = keys(&row, "keys")?;
    out.notes += int_column(&row, "removed")? as u64;
    let q = ex::REMOVE_INSIGHTS
        .bind()
        .p("source_key", key)
        .p("added_by", SYSTEM_AUTHOR);
    out.notes += counted(txn, q.query()?, "removed").await?;
    delete_fact_chains(txn, &facts, out).await?;

    // Its thread closes over the gap; then the Source with all its links, its
    // extraction records and its events.
    let q = ex::BRIDGE_THREAD.bind().p("source_key", key).p("at", at);
    txn_rows(txn, q.query()?).await?;
    let source = Keys::from([key.to_owned()]);
    out.sources += delete_sources(txn, &source).await?;
    out.source_keys.push(key.to_owned());
    delete_events(txn, &source, out).await?;

    // Nodes and links no other Source supports.
    let orphans = select(
        txn,
        |k| ex::ORPHAN_NODES.bind().p("entity_keys", k).query(),
        &touched_nodes,
    )
    .await?;
    delete_nodes(txn, &orphans, out).await?;
    touched_nodes.retain(|k| !orphans.contains(k));
    let orphan_rels = select(
        txn,
        |k| ex::ORPHAN_RELATIONSHIPS.bind().p("rel_keys", k).query(),
        &touched_rels,
    )
    .await?;
    delete_relationships(txn, &orphan_rels, out).await?;

    let anchors = erase_from_hierarchy(txn, &touched_storylines, at, out).await?;

    // Surviving nodes and links: counters from what is left, descriptions cleared.
    if !touched_nodes.is_empty() {
        let q = ex::RECOUNT_NODES
            .bind()
            .p("entity_keys", key_list(&touched_nodes))
            .p("at", at);
        out.descriptions_cleared += counted(txn, q.query()?, "cleared").await?;
    }
    if !anchors.is_empty() {
        let q = ex::ANCHOR_FLAGS.bind().p("entity_keys", key_list(&anchors));
        txn_rows(txn, q.query()?).await?;
    }
    let left: Keys = touched_rels.difference(&orphan_rels).cloned().collect();
    if !left.is_empty() {
        let q = ex::CLEAR_RELATIONSHIPS
            .bind()
            .p("rel_keys", key_list(&left))
            .p("at", at);
        out.descriptions_cleared += counted(txn, q.query()?, "cleared").await?;
    }
    Ok(true)
}

/// Storylines that included the erased Source: the empty ones go (with their events),
/// the others are recounted and cleared; then the same for their Macros. Returns the
/// anchors of what went, whose `has_meso`/`has_macro` flags may be stale.
async fn erase_from_hierarchy(
    txn: &mut Txn,
    storylines: &Keys,
    at: DateTime<Utc>,
    out: &mut Erasure,
) -> GraphResult<Keys> {
    let mut anchors = Keys::new();
    if storylines.is_empty() {
        return Ok(anchors);
    }
    let q = ex::STORYLINES_LEFT
        .bind()
        .p("storyline_ids", key_list(storylines));
    let (mut empty, mut kept, mut macros) = (Keys::new(), Keys::new(), Keys::new());
    for row in txn_rows(txn, q.query()?).await? {
        let id = required(&row, "id")?;
        if bool_column(&row, "empty")? {
            anchors.insert(required(&row, "anchor_key")?);
            empty.insert(id);
        } else {
            kept.insert(id);
        }
        macros.extend(keys(&row, "macros")?);
    }
    out.storylines += delete_storylines(txn, &empty).await?;
    delete_events(txn, &empty, out).await?;
    if !kept.is_empty() {
        let q = ex::CLEAR_STORYLINES
            .bind()
            .p("storyline_ids", key_list(&kept))
            .p("at", at);
        out.descriptions_cleared += counted(txn, q.query()?, "cleared").await?;
    }
    if macros.is_empty() {
        return Ok(anchors);
    }
    let q = ex::MACROS_LEFT.bind().p("macro_ids", key_list(&macros));
    let (mut empty, mut kept) = (Keys::new(), Keys::new());
    for row in txn_rows(txn, q.query()?).await? {
        let id = required(&row, "id")?;
        if bool_column(&row, "empty")? {
            anchors.insert(required(&row, "anchor_key")?);
            empty.insert(id);
        } else {
            kept.insert(id);
        }
    }
    out.macros += delete_macros(txn, &empty).await?;
    delete_events(txn, &empty, out).await?;
    if !kept.is_empty() {
        let q = ex::CLEAR_MACROS
            .bind()
            .p("macro_ids", key_list(&kept))
            .p("at", at);
        out.descriptions_cleared += counted(txn, q.query()?, "cleared").await?;
    }
    Ok(anchors)
}

#[async_trait]
impl ErasureStore for Neo4jGraph {
    async fn erase_source(
        &self,
        entity_key: &str,
        at: DateTime<Utc>,
    ) -> GraphResult<Option<Erasure>> {
        self.retrying(|| async {
            let mut txn = self.begin().await?;
            let result = async {
                let mut out = Erasure::default();
                let found = erase_source_in(&mut txn, entity_key, at, &mut out).await?;
                Ok(found.then_some(out))
            }
            .await;
            finish(txn, result).await
        })
        .await
    }

    async fn erase_user(&self, user_id: &str, at: DateTime<Utc>) -> GraphResult<Erasure> {
        self.retrying(|| async {
            let mut txn = self.begin().await?;
            let result = erase_user_in(&mut txn, user_id, at).await;
            finish(txn, result).await
        })
        .await
    }

    async fn erase_fact(&self, fact_id: &str) -> GraphResult<Option<Erasure>> {
        self.retrying(|| async {
            let mut txn = self.begin().await?;
            let result = async {
                let mut out = Erasure::default();
                delete_fact_chains(&mut txn, &Keys::from([fact_id.to_owned()]), &mut out).await?;
                Ok((out.facts > 0).then_some(out))
            }
            .await;
            finish(txn, result).await
        })
        .await
    }
}
