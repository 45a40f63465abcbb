//! Erasing a user on SQLite, inside the caller's transaction, mirroring
//! `graph-neo4j/src/erase_user.rs`: the user's graph and facts first (nothing of it needs
//! recounting), then their own Sources — those nobody else takes part in at once, the
//! team ones as single Sources are erased, so the other participants' graphs drawn from
//! them are cleaned and recounted — then their place in others' team Sources, their
//! events, and the search indexes' change log.

use std::collections::BTreeSet;

use cosmo_core::domain::Erasure;
use cosmo_core::graph::GraphResult;

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
    let nodes: BTreeSet<String> = strings(
        tx,
        "SELECT entity_key FROM nodes WHERE user_id = $1",
        user_id,
    )
    .await?
    .into_iter()
    .collect();
    let facts = strings(tx, "SELECT fact_id FROM facts WHERE user_id = $1", user_id).await?;
    delete_fact_chains(tx, &facts, out).await?;
    delete_nodes(tx, &nodes, out).await?;
    // Whatever was not reachable from their nodes (nothing, normally).
    out.notes += by_user(tx, "DELETE FROM notes WHERE user_id = $1", user_id).await?;
    out.relationships +=
        by_user(tx, "DELETE FROM relationships WHERE user_id = $1", user_id).await?;
    out.storylines += by_user(tx, "DELETE FROM storylines WHERE user_id = $1", user_id).await?;
    out.macros += by_user(tx, "DELETE FROM macros WHERE user_id = $1", user_id).await?;
    for sql in [
        "DELETE FROM mentions WHERE user_id = $1",
        "DELETE FROM derived_from WHERE user_id = $1",
        "DELETE FROM extractions WHERE user_id = $1",
    ] {
        by_user(tx, sql, user_id).await?;
    }
    // Their own Sources: nobody else drew on one without other participants, so
    // those go at once; a team Source is erased as a single Source would be, so the
    // other participants' graphs drawn from it are cleaned and recounted.
    let solo = strings(
        tx,
        "SELECT entity_key FROM sources s WHERE user_id = $1 AND NOT EXISTS (
             SELECT 1 FROM source_participants p WHERE p.source_key = s.entity_key AND p.user_id <> $1)
         ORDER BY entity_key",
        user_id,
    )
    .await?;
    let facts = strings(
        tx,
        "SELECT fact_id FROM fact_sources WHERE source_key IN (SELECT entity_key FROM sources WHERE user_id = $1)",
        user_id,
    )
    .await?;
    delete_fact_chains(tx, &facts, out).await?;
    out.sources += by_user(
        tx,
        "DELETE FROM sources WHERE user_id = $1 AND NOT EXISTS (
             SELECT 1 FROM source_participants p WHERE p.source_key = sources.entity_key AND p.user_id <> $1)",
        user_id,
    )
    .await?;
    out.source_keys.extend(solo);
    let team = strings(
        tx,
        "SELECT entity_key FROM sources WHERE user_id = $1 ORDER BY entity_key",
        user_id,
    )
    .await?;
    for key in &team {
        erase_source_in(tx, key, at, out).await?;
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
    .execute(&mut **tx)
    .await?;
    out.events += sqlx::query("DELETE FROM lifecycle_events WHERE user_id = $1")
        .bind(user_id)
        .execute(&mut **tx)
        .await?
        .rows_affected();
    // Their id leaves the search indexes' change log too, and with it every other
    // entry: a process still holding their memories (any user's part that includes
    // a team Source of theirs) cannot catch up from a log that no longer reaches
    // back to where it stands, so it loads anew what it next searches. (Erasing a
    // user is rare; a reload costs about a second per 10⁴ Sources.)
    sqlx::query("DELETE FROM search_vector_log")
        .execute(&mut **tx)
        .await?;
    Ok(())
}
