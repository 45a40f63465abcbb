//! The periodic maintenance jobs (docs/architecture.md, "Maintenance jobs"). Each takes
//! an as-of time (its "now": the scheduler's slot, an operator's back-fill date, or the
//! clock), walks the graph in bounded batches, writes in batches, and returns what it
//! did. Each is safe to re-run for the same as-of time, and resumes after an
//! interruption, because every step either changes nothing the second time or works on
//! what is still left to do.

use chrono::{DateTime, Utc};
use cosmo_shared::job_runs::RunReport;
use cosmo_shared::llm::SummaryTask;
use cosmo_shared::queue::JobKind;
use cosmo_shared::services::Services;

use crate::error::JobResult;
use crate::metering::Metered;

pub mod causal;
pub mod consolidate;
pub mod decay;
pub mod episodic;
pub mod hierarchy;

/// Runs one maintenance job for `as_of`.
pub async fn run(svc: &Services, kind: JobKind, as_of: DateTime<Utc>) -> JobResult<RunReport> {
    match kind {
        JobKind::Decay => decay::run(svc, as_of).await,
        JobKind::PromoteStorylines => hierarchy::promote_storylines(svc, as_of).await,
        JobKind::RefreshStorylines => hierarchy::refresh_storylines(svc, as_of).await,
        JobKind::PromoteMacros => hierarchy::promote_macros(svc, as_of).await,
        JobKind::RefreshMacros => hierarchy::refresh_macros(svc, as_of).await,
        JobKind::ConsolidateDescriptions => consolidate::descriptions(svc, as_of).await,
        JobKind::CleanupNotes => consolidate::cleanup_notes(svc, as_of).await,
        JobKind::ConsolidateEpisodic => episodic::run(svc, as_of).await,
        JobKind::InferCausalLinks => causal::run(svc, as_of).await,
        JobKind::ProcessSource | JobKind::ExtractEntities | JobKind::Reconcile => Err(
            crate::error::JobError::permanent(format!("{kind} is not a maintenance job")),
        ),
    }
}

/// A summary and its embedding, both metered to `user_id` under `kind`.
pub(crate) async fn describe(
    svc: &Services,
    kind: JobKind,
    user_id: &str,
    task: SummaryTask,
    current: Option<&str>,
    inputs: &[String],
) -> JobResult<(String, Vec<f32>)> {
    let meter = Metered { svc, kind, user_id };
    let text = meter
        .record(
            svc.models
                .summarizer
                .summarize(task, current, inputs)
                .await?,
        )
        .await?;
    let embedding = embed(svc, kind, user_id, &text).await?;
    Ok((text, embedding))
}

/// One embedding, metered.
pub(crate) async fn embed(
    svc: &Services,
    kind: JobKind,
    user_id: &str,
    text: &str,
) -> JobResult<Vec<f32>> {
    let meter = Metered { svc, kind, user_id };
    let mut vectors = meter
        .record(svc.models.embedder.embed(&[text.to_owned()]).await?)
        .await?;
    Ok(vectors.pop().unwrap_or_default())
}
