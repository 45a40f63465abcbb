//! The periodic maintenance jobs (docs/architecture.md, "Maintenance jobs"). Each takes
//! an as-of time (its "now": the scheduler's slot, an operator's back-fill date, or the
//! clock), walks the graph in bounded batches, writes in batches, and returns what it
//! did. Each is safe to re-run for the same as-of time, and resumes after an
//! interruption, because every step either changes nothing the second time or works on
//! what is still left to do.

use chrono::{DateTime, Utc};
use cosmo_shared::job_runs::RunReport;
use cosmo_shared::queue::JobKind;
use cosmo_shared::services::Services;

use crate::error::JobResult;
use crate::metering::ModelCalls;

pub mod causal;
pub mod consolidate;
pub mod decay;
pub mod episodic;
pub mod hierarchy;

/// Runs one maintenance job for `as_of`. Each job is a plain function of the store
/// ports it uses (one or two), its settings, the [`ModelCalls`] it makes and `as_of`;
/// this is the one place that hands them the process's services.
pub async fn run(svc: &Services, kind: JobKind, as_of: DateTime<Utc>) -> JobResult<RunReport> {
    let graph = svc.graph.as_ref();
    let settings = &svc.config.maintenance;
    let models = ModelCalls::new(svc, kind);
    match kind {
        JobKind::Decay => {
            decay::run(graph, &svc.config.lifecycle, settings.batch_size, as_of).await
        }
        JobKind::PromoteStorylines => {
            hierarchy::promote_storylines(graph, &models, settings, as_of).await
        }
        JobKind::RefreshStorylines => {
            hierarchy::refresh_storylines(graph, &models, settings, as_of).await
        }
        JobKind::PromoteMacros => hierarchy::promote_macros(graph, &models, settings, as_of).await,
        JobKind::RefreshMacros => hierarchy::refresh_macros(graph, &models, settings, as_of).await,
        JobKind::ConsolidateDescriptions => {
            consolidate::descriptions(graph, &models, settings.consolidation_cap, as_of).await
        }
        JobKind::CleanupNotes => {
            consolidate::cleanup_notes(graph, settings.batch_size, as_of).await
        }
        JobKind::ConsolidateEpisodic => episodic::run(graph, &models, settings, as_of).await,
        JobKind::InferCausalLinks => causal::run(graph, &models, settings, as_of).await,
        JobKind::ProcessSource | JobKind::ExtractEntities | JobKind::Reconcile => Err(
            crate::error::JobError::permanent(format!("{kind} is not a maintenance job")),
        ),
    }
}
