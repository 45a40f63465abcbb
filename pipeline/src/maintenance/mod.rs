//! The periodic maintenance jobs (docs/architecture.md, "Maintenance jobs"). Each takes
//! an as-of time (its "now": the scheduler's slot, an operator's back-fill date, or the
//! clock), walks the graph in bounded batches, writes in batches, and returns what it
//! did. Each is safe to re-run for the same as-of time, and resumes after an
//! interruption, because every step either changes nothing the second time or works on
//! what is still left to do.

use chrono::{DateTime, Utc};
use cosmo_shared::domain::LifecycleEvent;
use cosmo_shared::graph::GraphResult;
use cosmo_shared::job_runs::RunReport;
use cosmo_shared::queue::JobKind;
use cosmo_shared::services::Services;
use serde::Serialize;
use utoipa::ToSchema;

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
    let models = ModelCalls::of(svc, kind);
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

/// The jobs that have a dry run: the three that take memory away, `decay` and
/// `consolidate-episodic` (archive) and `cleanup-notes` (deletes).
pub const DRY_RUN_KINDS: [JobKind; 3] = [
    JobKind::Decay,
    JobKind::ConsolidateEpisodic,
    JobKind::CleanupNotes,
];

/// Why `kind` has no dry run (it is not among [`DRY_RUN_KINDS`]).
pub fn no_dry_run(kind: JobKind) -> String {
    format!(
        "{kind} has no dry run: only decay, consolidate-episodic and cleanup-notes, which take memory away, have one"
    )
}

/// How many of the memories a dry run would archive it lists unless asked otherwise.
pub const DRY_RUN_LISTED: usize = 100;

/// What a run of a job to `as_of` would do, read without writing anything: the numbers
/// its run record would hold and, for `decay` and `consolidate-episodic`, the memories
/// it would archive.
#[derive(Debug, Clone, PartialEq, Serialize, ToSchema)]
pub struct DryRun {
    /// The run's "now".
    pub as_of: DateTime<Utc>,
    /// What the run would look at: every memory of every kind (`decay`), the Sources it
    /// would consolidate (`consolidate-episodic`), the expired notes (`cleanup-notes`).
    pub examined: i64,
    /// What it would change: memories whose lifecycle would change, salience decayed or
    /// archived (`decay`); Sources it would archive (`consolidate-episodic`); notes it
    /// would delete (`cleanup-notes`).
    pub changed: i64,
    /// Memories it would archive (`cleanup-notes` archives none).
    pub archived: i64,
    /// What would change, per kind of memory, e.g. `{"node": 120, "source": 30}`
    /// (`decay`); the clusters and faded Sources consolidated (`consolidate-episodic`).
    #[schema(value_type = Object)]
    pub details: serde_json::Map<String, serde_json::Value>,
    /// The first of the memories that would be archived (`decay`: by kind, then key;
    /// `consolidate-episodic`: the clusters' Sources, then the faded ones, each oldest
    /// first), at most the number asked for: each as the event the run would write to its log. Fewer
    /// than `archived` when the list was cut.
    pub archive: Vec<LifecycleEvent>,
}

/// A job's dry run for `as_of` (`None`: the job has none, see [`DRY_RUN_KINDS`]),
/// listing at most `list` of the memories it would archive.
pub async fn dry_run(
    svc: &Services,
    kind: JobKind,
    as_of: DateTime<Utc>,
    list: usize,
) -> GraphResult<Option<DryRun>> {
    let graph = svc.graph.as_ref();
    let batch = svc.config.maintenance.batch_size;
    Ok(match kind {
        JobKind::Decay => {
            Some(decay::preview(graph, &svc.config.lifecycle, batch, as_of, list).await?)
        }
        JobKind::CleanupNotes => Some(consolidate::cleanup_notes_preview(graph, as_of).await?),
        JobKind::ConsolidateEpisodic => {
            Some(episodic::preview(graph, &svc.config.maintenance, as_of, list).await?)
        }
        _ => None,
    })
}
