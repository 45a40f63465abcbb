//! Erasing a user on SQLite, inside the caller's transaction, mirroring
//! `graph-neo4j/src/erase_user.rs`: the user's graph and facts first (nothing of it needs
//! recounting), then their own Sources — those nobody else takes part in at once, the
//! team ones as single Sources are erased, so the other participants' graphs drawn from
//! them are cleaned and recounted — then their place in others' team Sources, their
//! events, and the search indexes' change log.

use std::collections::BTreeSet;

use cosmo_core::domain::Erasure;
use cosmo_core::graph::GraphResult;
use cosmo_core::query_file;

use super::deletions::{Tx, by_user, delete_fact_chains, delete_nodes, strings};
use super::erasure::erase_source_in;

/// Deletes everything of `user_id` (at `at`, in microseconds), counting into `out`.
pub(super) async fn erase_user_in(
    tx: &mut Tx,
    user_id: &str,
    at: i64,
    out: &mut Erasure,
) -> GraphResult<()> {
    // Their graph first: nothing of it needs recounting.
    let nodes: BTreeSet<String> = strings(tx, query_file!("erase_user/user_nodes.sql"), user_id)
        .await?
        .into_iter()
        .collect();
    let facts = strings(tx, query_file!("erase_user/user_facts.sql"), user_id).await?;
    delete_fact_chains(tx, &facts, out).await?;
    delete_nodes(tx, &nodes, out).await?;
    // Whatever was not reachable from their nodes (nothing, normally).
    out.notes += by_user(tx, query_file!("erase_user/delete_notes.sql"), user_id).await?;
    out.relationships += by_user(
        tx,
        query_file!("erase_user/delete_relationships.sql"),
        user_id,
    )
    .await?;
    out.storylines += by_user(tx, query_file!("erase_user/delete_storylines.sql"), user_id).await?;
    out.macros += by_user(tx, query_file!("erase_user/delete_macros.sql"), user_id).await?;
    for sql in [
        query_file!("erase_user/delete_mentions.sql"),
        query_file!("erase_user/delete_derived_from.sql"),
        query_file!("erase_user/delete_extractions.sql"),
    ] {
        by_user(tx, sql, user_id).await?;
    }
    // Their own Sources: nobody else drew on one without other participants, so
    // those go at once; a team Source is erased as a single Source would be, so the
    // other participants' graphs drawn from it are cleaned and recounted.
    let solo = strings(tx, query_file!("erase_user/solo_sources.sql"), user_id).await?;
    let facts = strings(
        tx,
        query_file!("erase_user/facts_of_own_sources.sql"),
        user_id,
    )
    .await?;
    delete_fact_chains(tx, &facts, out).await?;
    out.sources += by_user(
        tx,
        query_file!("erase_user/delete_solo_sources.sql"),
        user_id,
    )
    .await?;
    out.source_keys.extend(solo);
    let team = strings(tx, query_file!("erase_user/team_sources.sql"), user_id).await?;
    for key in &team {
        erase_source_in(tx, key, at, out).await?;
    }
    // They leave other users' team Sources.
    sqlx::query(query_file!("erase_user/leave_team_sources.sql"))
        .bind(user_id)
        .bind(at)
        .execute(&mut **tx)
        .await?;
    out.events += sqlx::query(query_file!("erase_user/delete_events.sql"))
        .bind(user_id)
        .execute(&mut **tx)
        .await?
        .rows_affected();
    // Their id leaves the search indexes' change log too, and with it every other
    // entry: a process still holding their memories (any user's part that includes
    // a team Source of theirs) cannot catch up from a log that no longer reaches
    // back to where it stands, so it loads anew what it next searches. (Erasing a
    // user is rare; a reload costs about a second per 10⁴ Sources.)
    sqlx::query(query_file!("erase_user/clear_search_vector_log.sql"))
        .execute(&mut **tx)
        .await?;
    Ok(())
}
