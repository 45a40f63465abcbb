//! Erasure: a Source or a whole user, every trace — for a user first their live sessions
//! (turns not yet in a Source), then the graph store's part
//! ([`cosmo_shared::graph::ErasureStore`]), then the queued jobs about it and, for a user, their
//! usage rows and their directory entry. Jobs that slip through (running at the time)
//! find nothing to work on and do nothing.

use serde::Serialize;

use cosmo_shared::domain::Erasure;
use cosmo_shared::services::Services;

#[derive(Debug, Clone, PartialEq, Serialize, utoipa::ToSchema)]
pub struct ErasureReport {
    #[serde(flatten)]
    pub graph: Erasure,
    pub jobs_purged: u64,
    pub usage_rows: u64,
    /// Turns of the user's live sessions that were not in a Source yet.
    pub session_turns: u64,
}

/// Erases one Source; `None` if it does not exist.
pub async fn erase_source(
    svc: &Services,
    entity_key: &str,
) -> anyhow::Result<Option<ErasureReport>> {
    let Some(graph) = svc.graph.erase_source(entity_key, svc.clock.now()).await? else {
        return Ok(None);
    };
    let jobs_purged = svc.queue.purge_about(&graph.source_keys, None).await?;
    tracing::info!(entity_key, ?graph, jobs_purged, "source erased");
    Ok(Some(ErasureReport {
        graph,
        jobs_purged,
        usage_rows: 0,
        session_turns: 0,
    }))
}

/// Erases everything of a user.
pub async fn erase_user(svc: &Services, user_id: &str) -> anyhow::Result<ErasureReport> {
    // Sessions first: a chunk cannot be posted as a Source after the graph is erased.
    let session_turns = svc.sessions.delete_user(user_id).await?;
    let graph = svc.graph.erase_user(user_id, svc.clock.now()).await?;
    let jobs_purged = svc
        .queue
        .purge_about(&graph.source_keys, Some(user_id))
        .await?;
    let usage_rows = svc.usage.delete_user(user_id).await?;
    svc.directory.delete_user(user_id).await?;
    tracing::info!(
        user_id,
        ?graph,
        jobs_purged,
        usage_rows,
        session_turns,
        "user erased"
    );
    Ok(ErasureReport {
        graph,
        jobs_purged,
        usage_rows,
        session_turns,
    })
}
