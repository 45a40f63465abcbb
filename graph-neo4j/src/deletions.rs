//! The deletions every erasure shares (a Source's, a user's, a fact's), mirroring
//! `graph-sqlite/src/erasure.rs`: fact chains, semantic links, nodes with what hangs off
//! them, Storylines, Macros, Sources, and the lifecycle events of all of those, each
//! counted into the [`Erasure`] report. They run inside the caller's transaction.

use std::collections::BTreeSet;

use cosmo_core::domain::Erasure;
use cosmo_core::graph::GraphResult;
use neo4rs::{BoltType, Row, Txn};

use super::bolt::{int_column, list, strings_column};
use super::cypher::erasure as ex;
use super::extraction::count;
use super::txn_rows;

pub(super) type Keys = BTreeSet<String>;

/// A list column as a set of keys.
pub(super) fn keys(row: &Row, column: &str) -> GraphResult<Keys> {
    Ok(strings_column(row, column)?.into_iter().collect())
}

pub(super) fn key_list<'a>(keys: impl IntoIterator<Item = &'a String>) -> BoltType {
    list(keys.into_iter().map(String::as_str))
}

/// The one row of a statement that always returns one (an aggregation).
pub(super) async fn one_row(txn: &mut Txn, q: neo4rs::Query) -> GraphResult<Row> {
    txn_rows(txn, q)
        .await?
        .into_iter()
        .next()
        .ok_or_else(|| anyhow::anyhow!("an erasure statement returned no row").into())
}

pub(super) async fn counted(txn: &mut Txn, q: neo4rs::Query, column: &str) -> GraphResult<u64> {
    Ok(count(txn, q, column).await? as u64)
}

pub(super) async fn delete_events(
    txn: &mut Txn,
    keys: &Keys,
    out: &mut Erasure,
) -> GraphResult<()> {
    if !keys.is_empty() {
        let q = ex::DELETE_EVENTS.bind().p("memory_keys", key_list(keys));
        out.events += counted(txn, q.query()?, "deleted").await?;
    }
    Ok(())
}

/// Deletes facts with the facts they superseded (their history); a fact that
/// superseded one of them loses the link.
pub(super) async fn delete_fact_chains(
    txn: &mut Txn,
    roots: &Keys,
    out: &mut Erasure,
) -> GraphResult<()> {
    if roots.is_empty() {
        return Ok(());
    }
    let q = ex::FACT_CHAINS.bind().p("fact_ids", key_list(roots));
    let ids = keys(&one_row(txn, q.query()?).await?, "ids")?;
    if ids.is_empty() {
        return Ok(());
    }
    let q = ex::DELETE_FACTS.bind().p("fact_ids", key_list(&ids));
    out.facts += counted(txn, q.query()?, "deleted").await?;
    delete_events(txn, &ids, out).await
}

/// Deletes semantic links with their notes and events.
pub(super) async fn delete_relationships(
    txn: &mut Txn,
    keys: &Keys,
    out: &mut Erasure,
) -> GraphResult<()> {
    if keys.is_empty() {
        return Ok(());
    }
    let q = ex::DELETE_RELATIONSHIPS
        .bind()
        .p("rel_keys", key_list(keys));
    let row = one_row(txn, q.query()?).await?;
    out.relationships += int_column(&row, "deleted")? as u64;
    out.notes += int_column(&row, "notes")? as u64;
    delete_events(txn, keys, out).await
}

pub(super) async fn delete_storylines(txn: &mut Txn, ids: &Keys) -> GraphResult<u64> {
    if ids.is_empty() {
        return Ok(0);
    }
    let q = ex::DELETE_STORYLINES
        .bind()
        .p("storyline_ids", key_list(ids));
    counted(txn, q.query()?, "deleted").await
}

pub(super) async fn delete_macros(txn: &mut Txn, ids: &Keys) -> GraphResult<u64> {
    if ids.is_empty() {
        return Ok(0);
    }
    let q = ex::DELETE_MACROS.bind().p("macro_ids", key_list(ids));
    counted(txn, q.query()?, "deleted").await
}

/// Deletes nodes with everything hanging off them: links, notes, Storylines and Macros
/// anchored on them, and all their events.
pub(super) async fn delete_nodes(txn: &mut Txn, keys: &Keys, out: &mut Erasure) -> GraphResult<()> {
    if keys.is_empty() {
        return Ok(());
    }
    let q = ex::NODE_DEPENDENTS.bind().p("entity_keys", key_list(keys));
    let (mut rels, mut storylines, mut macros, mut notes) =
        (Keys::new(), Keys::new(), Keys::new(), 0);
    for row in txn_rows(txn, q.query()?).await? {
        notes += int_column(&row, "notes")? as u64;
        rels.extend(self::keys(&row, "relationships")?);
        storylines.extend(self::keys(&row, "storylines")?);
        macros.extend(self::keys(&row, "macros")?);
    }
    delete_relationships(txn, &rels, out).await?;
    out.notes += notes;
    out.macros += delete_macros(txn, &macros).await?;
    out.storylines += delete_storylines(txn, &storylines).await?;
    let q = ex::DELETE_NODES.bind().p("entity_keys", key_list(keys));
    out.nodes += counted(txn, q.query()?, "deleted").await?;
    delete_events(txn, keys, out).await?;
    delete_events(txn, &storylines, out).await?;
    delete_events(txn, &macros, out).await
}

/// Deletes Sources (and their extraction records) that nothing else needs recounted for.
pub(super) async fn delete_sources(txn: &mut Txn, keys: &Keys) -> GraphResult<u64> {
    if keys.is_empty() {
        return Ok(0);
    }
    let q = ex::DELETE_EXTRACTIONS
        .bind()
        .p("source_keys", key_list(keys));
    txn_rows(txn, q.query()?).await?;
    let q = ex::DELETE_SOURCES.bind().p("source_keys", key_list(keys));
    counted(txn, q.query()?, "deleted").await
}
