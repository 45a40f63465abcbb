//! The deletions every erasure shares (a Source's, a user's, a fact's), mirroring
//! `graph-neo4j/src/deletions.rs`: fact chains, semantic links, nodes with what hangs off
//! them, and the lifecycle events of all of those, each counted into the [`Erasure`]
//! report. They run inside the caller's transaction.

use std::collections::BTreeSet;

use cosmo_core::domain::Erasure;
use cosmo_core::graph::GraphResult;
use cosmo_core::query_file;

pub(super) type Tx = crate::WriteTx;

/// Deletes the Macros whose ids are in the JSON array `$1`.
pub(super) const DELETE_MACROS: &str = query_file!("deletions/delete_macros.sql");

/// Deletes the Storylines whose ids are in the JSON array `$1`.
pub(super) const DELETE_STORYLINES: &str = query_file!("deletions/delete_storylines.sql");

pub(super) fn json<'a>(keys: impl IntoIterator<Item = &'a String>) -> GraphResult<String> {
    let keys: Vec<&String> = keys.into_iter().collect();
    Ok(serde_json::to_string(&keys).map_err(anyhow::Error::from)?)
}

pub(super) async fn strings(
    tx: &mut Tx,
    sql: &'static str,
    bind: &str,
) -> GraphResult<Vec<String>> {
    Ok(sqlx::query_scalar(sql)
        .bind(bind)
        .fetch_all(&mut **tx)
        .await?)
}

pub(super) async fn exec(tx: &mut Tx, sql: &'static str, keys: &str) -> GraphResult<u64> {
    Ok(sqlx::query(sql)
        .bind(keys)
        .execute(&mut **tx)
        .await?
        .rows_affected())
}

pub(super) async fn by_user(tx: &mut Tx, sql: &'static str, user_id: &str) -> GraphResult<u64> {
    Ok(sqlx::query(sql)
        .bind(user_id)
        .execute(&mut **tx)
        .await?
        .rows_affected())
}

pub(super) async fn delete_events(
    tx: &mut Tx,
    keys: &BTreeSet<String>,
    out: &mut Erasure,
) -> GraphResult<()> {
    if !keys.is_empty() {
        out.events += exec(tx, query_file!("deletions/delete_events.sql"), &json(keys)?).await?;
    }
    Ok(())
}

/// Deletes facts with the facts they superseded (their history); a fact that
/// superseded one of them loses the link (`ON DELETE SET NULL`).
pub(super) async fn delete_fact_chains(
    tx: &mut Tx,
    roots: &[String],
    out: &mut Erasure,
) -> GraphResult<()> {
    if roots.is_empty() {
        return Ok(());
    }
    let ids: BTreeSet<String> = sqlx::query_scalar(query_file!("deletions/fact_chains.sql"))
        .bind(json(roots)?)
        .fetch_all(&mut **tx)
        .await?
        .into_iter()
        .collect();
    out.facts += exec(tx, query_file!("deletions/delete_facts.sql"), &json(&ids)?).await?;
    delete_events(tx, &ids, out).await
}

/// Deletes relationships with their notes and events.
pub(super) async fn delete_relationships(
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
        query_file!("deletions/delete_relationship_notes.sql"),
        &keys_json,
    )
    .await?;
    out.relationships += exec(
        tx,
        query_file!("deletions/delete_relationships.sql"),
        &keys_json,
    )
    .await?;
    delete_events(tx, keys, out).await
}

/// Deletes nodes with everything hanging off them: relationships, notes, Storylines
/// and Macros anchored on them, and all their events.
pub(super) async fn delete_nodes(
    tx: &mut Tx,
    keys: &BTreeSet<String>,
    out: &mut Erasure,
) -> GraphResult<()> {
    if keys.is_empty() {
        return Ok(());
    }
    let keys_json = json(keys)?;
    let rels: BTreeSet<String> =
        sqlx::query_scalar(query_file!("deletions/relationships_of_nodes.sql"))
            .bind(&keys_json)
            .fetch_all(&mut **tx)
            .await?
            .into_iter()
            .collect();
    delete_relationships(tx, &rels, out).await?;
    let storylines: BTreeSet<String> =
        sqlx::query_scalar(query_file!("deletions/storylines_anchored_on_nodes.sql"))
            .bind(&keys_json)
            .fetch_all(&mut **tx)
            .await?
            .into_iter()
            .collect();
    let macros: BTreeSet<String> =
        sqlx::query_scalar(query_file!("deletions/macros_anchored_on_nodes.sql"))
            .bind(&keys_json)
            .fetch_all(&mut **tx)
            .await?
            .into_iter()
            .collect();
    out.notes += exec(
        tx,
        query_file!("deletions/delete_node_notes.sql"),
        &keys_json,
    )
    .await?;
    out.macros += exec(tx, DELETE_MACROS, &json(&macros)?).await?;
    out.storylines += exec(tx, DELETE_STORYLINES, &json(&storylines)?).await?;
    out.nodes += exec(tx, query_file!("deletions/delete_nodes.sql"), &keys_json).await?;
    delete_events(tx, keys, out).await?;
    delete_events(tx, &storylines, out).await?;
    delete_events(tx, &macros, out).await
}
