//! Erasing a user or a fact on Neo4j, each in one transaction, mirroring
//! `graph-sqlite/src/erasure.rs`: the user's graph and facts first (nothing of it needs
//! recounting), then their own Sources — those nobody else takes part in at once, the
//! team ones as single Sources are erased, so the other participants' graphs drawn from
//! them are cleaned and recounted — then their place in others' team Sources, their
//! events and their fact lock.

use chrono::{DateTime, Utc};
use cosmo_core::domain::Erasure;
use cosmo_core::graph::GraphResult;
use neo4rs::Txn;

use super::cypher::erasure as ex;
use super::deletions::{
    Keys, counted, delete_fact_chains, delete_macros, delete_nodes, delete_relationships,
    delete_sources, delete_storylines, keys, one_row,
};
use super::erasure::erase_source_in;
use super::txn_rows;

pub(super) async fn erase_user_in(
    txn: &mut Txn,
    user_id: &str,
    at: DateTime<Utc>,
) -> GraphResult<Erasure> {
    let mut out = Erasure::default();
    let q = ex::USER_GRAPH.bind().p("user_id", user_id);
    let graph = one_row(txn, q.query()?).await?;
    delete_fact_chains(txn, &keys(&graph, "fact_ids")?, &mut out).await?;
    delete_nodes(txn, &keys(&graph, "entity_keys")?, &mut out).await?;

    // Whatever was not reachable from their nodes (nothing, normally).
    let q = ex::USER_LEFTOVERS.bind().p("user_id", user_id);
    let leftovers = one_row(txn, q.query()?).await?;
    delete_relationships(txn, &keys(&leftovers, "rel_keys")?, &mut out).await?;
    out.storylines += delete_storylines(txn, &keys(&leftovers, "storyline_ids")?).await?;
    out.macros += delete_macros(txn, &keys(&leftovers, "macro_ids")?).await?;
    let q = ex::DELETE_USER_LINKS.bind().p("user_id", user_id);
    txn_rows(txn, q.query()?).await?;

    // Their own Sources.
    let q = ex::USER_SOURCES.bind().p("user_id", user_id);
    let sources = one_row(txn, q.query()?).await?;
    delete_fact_chains(txn, &keys(&sources, "fact_ids")?, &mut out).await?;
    let solo: Keys = keys(&sources, "solo_keys")?;
    out.sources += delete_sources(txn, &solo).await?;
    out.source_keys.extend(solo);
    for key in keys(&sources, "team_keys")? {
        erase_source_in(txn, &key, at, &mut out).await?;
    }

    // They leave other users' team Sources; their event log goes.
    let q = ex::LEAVE_SOURCES.bind().p("user_id", user_id).p("at", at);
    txn_rows(txn, q.query()?).await?;
    let q = ex::DELETE_USER_EVENTS.bind().p("user_id", user_id);
    out.events += counted(txn, q.query()?, "deleted").await?;
    Ok(out)
}
