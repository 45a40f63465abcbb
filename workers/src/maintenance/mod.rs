//! The periodic maintenance jobs (docs/architecture.md, "Maintenance jobs"). Each takes
//! an as-of time (its "now": the scheduler's slot, an operator's back-fill date, or the
//! clock), walks the graph in bounded batches, writes in batches, and returns what it
//! did. Each is safe to re-run for the same as-of time, and resumes after an
//! interruption, because every step either changes nothing the second time or works on
//! what is still left to do.

use chrono::{DateTime, Utc};
use cosmo_shared::job_runs::RunReport;
use cosmo_shared::llm::{FoundCause, SummaryTask};
use cosmo_shared::queue::JobKind;
use cosmo_shared::services::Services;

use crate::error::JobResult;
use crate::metering::Metered;

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
    let models = ModelCalls { svc, kind };
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

/// The model calls a maintenance job makes, each recorded in the usage ledger under the
/// job's kind and the user it was made for before its answer is used.
#[derive(Debug, Clone, Copy)]
pub struct ModelCalls<'a> {
    svc: &'a Services,
    kind: JobKind,
}

impl ModelCalls<'_> {
    fn meter<'u>(&'u self, user_id: &'u str) -> Metered<'u> {
        Metered {
            svc: self.svc,
            kind: self.kind,
            user_id,
        }
    }

    /// A summary of `inputs` for `task`, revising `current` when there is one.
    pub async fn summarize(
        &self,
        user_id: &str,
        task: SummaryTask,
        current: Option<&str>,
        inputs: &[String],
    ) -> JobResult<String> {
        let completion = self
            .svc
            .models
            .summarizer
            .summarize(task, current, inputs)
            .await?;
        self.meter(user_id).record(completion).await
    }

    /// A summary (as [`Self::summarize`]) and its embedding.
    pub async fn describe(
        &self,
        user_id: &str,
        task: SummaryTask,
        current: Option<&str>,
        inputs: &[String],
    ) -> JobResult<(String, Vec<f32>)> {
        let text = self.summarize(user_id, task, current, inputs).await?;
        let embedding = self.embed(user_id, &text).await?;
        Ok((text, embedding))
    }

    /// One embedding.
    pub async fn embed(&self, user_id: &str, text: &str) -> JobResult<Vec<f32>> {
        let completion = self.svc.models.embedder.embed(&[text.to_owned()]).await?;
        let mut vectors = self.meter(user_id).record(completion).await?;
        Ok(vectors.pop().unwrap_or_default())
    }

    /// The causes of `effect` among `earlier`, and the name (`provider:model`) of the
    /// model that found them.
    pub async fn find_causes(
        &self,
        user_id: &str,
        effect: &str,
        earlier: &[String],
    ) -> JobResult<(String, Vec<FoundCause>)> {
        let completion = self.svc.models.causes.find_causes(effect, earlier).await?;
        let model = format!("{}:{}", completion.usage.provider, completion.usage.model);
        Ok((model, self.meter(user_id).record(completion).await?))
    }
}
