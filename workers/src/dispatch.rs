//! Routes each job to its function, in a span carrying the job id, kind, attempt and
//! the request id of the API call that caused it.

use async_trait::async_trait;
use chrono::{DateTime, Utc};
use cosmo_shared::job_runs::{JobRun, RunStatus};
use cosmo_shared::queue::JobKind;
use cosmo_shared::queue::payloads::{ExtractEntities, Periodic, ProcessSource};
use cosmo_shared::queue::runtime::{JobContext, JobHandler, JobOutcome};
use cosmo_shared::services::Services;
use cosmo_shared::telemetry::{self, repeats};
use serde::de::DeserializeOwned;
use tracing::{Instrument, error, info, info_span, warn};

use cosmo_pipeline::error::{JobError, JobResult};
use cosmo_pipeline::metering::ModelCalls;
use cosmo_pipeline::{extract_entities, maintenance, process_source, reconcile};

/// The worker's [`JobHandler`]: every job kind of this crate.
#[derive(Debug, Clone)]
pub struct Dispatcher {
    svc: Services,
}

impl Dispatcher {
    pub fn new(svc: Services) -> Self {
        Self { svc }
    }

    /// Runs one job to completion (also how tests run jobs directly).
    pub async fn run(
        &self,
        kind: JobKind,
        payload: &serde_json::Value,
        request_id: Option<String>,
    ) -> JobResult {
        self.execute(kind, payload, request_id, None)
            .await
            .map(|_| ())
    }

    /// Runs one job; periodic jobs return their recorded run. Every kind has its arm:
    /// a new kind does not compile until it is routed here.
    pub async fn execute(
        &self,
        kind: JobKind,
        payload: &serde_json::Value,
        request_id: Option<String>,
        job_id: Option<&str>,
    ) -> JobResult<Option<JobRun>> {
        let svc = &self.svc;
        match kind {
            JobKind::ProcessSource => process_source::run(
                svc.into(),
                svc.graph.as_ref(),
                &ModelCalls::of(svc, kind),
                &svc.config.models,
                &parse::<ProcessSource>(payload)?,
                request_id,
            )
            .await
            .map(|()| None),
            JobKind::ExtractEntities => extract_entities::run(
                svc.graph.as_ref(),
                &ModelCalls::of(svc, kind),
                svc.clock.as_ref(),
                svc.config.maintenance.storyline_window_days,
                &parse::<ExtractEntities>(payload)?,
            )
            .await
            .map(|()| None),
            JobKind::Reconcile
            | JobKind::Decay
            | JobKind::PromoteStorylines
            | JobKind::RefreshStorylines
            | JobKind::PromoteMacros
            | JobKind::RefreshMacros
            | JobKind::ConsolidateDescriptions
            | JobKind::CleanupNotes
            | JobKind::ConsolidateEpisodic
            | JobKind::InferCausalLinks => {
                let as_of = parse::<Periodic>(payload)?
                    .as_of
                    .unwrap_or_else(|| svc.clock.now());
                self.run_periodic(kind, as_of, job_id).await.map(Some)
            }
        }
    }

    /// Runs a periodic job for `as_of` and records the run (failed runs too).
    pub async fn run_periodic(
        &self,
        kind: JobKind,
        as_of: DateTime<Utc>,
        job_id: Option<&str>,
    ) -> JobResult<JobRun> {
        let svc = &self.svc;
        let started_at = svc.clock.now();
        let timer = std::time::Instant::now();
        let result = match kind {
            JobKind::Reconcile => {
                let settings = reconcile::Settings {
                    reconciler: &svc.config.reconciler,
                    embedder_fingerprint: &svc.config.models.embedder_fingerprint(),
                    keep_done_days: svc.config.queue.keep_done_days,
                };
                reconcile::run(svc.into(), &svc.sessions, settings).await
            }
            JobKind::Decay
            | JobKind::PromoteStorylines
            | JobKind::RefreshStorylines
            | JobKind::PromoteMacros
            | JobKind::RefreshMacros
            | JobKind::ConsolidateDescriptions
            | JobKind::CleanupNotes
            | JobKind::ConsolidateEpisodic
            | JobKind::InferCausalLinks => maintenance::run(svc, kind, as_of).await,
            JobKind::ProcessSource | JobKind::ExtractEntities => Err(JobError::permanent(format!(
                "{kind} is not a maintenance job"
            ))),
        };
        let report = result.as_ref().cloned().unwrap_or_default();
        let run = JobRun {
            run_id: ulid::Ulid::generate().to_string(),
            job_kind: kind.into(),
            job_id: job_id.map(str::to_owned),
            as_of,
            started_at,
            finished_at: started_at
                + chrono::Duration::milliseconds(timer.elapsed().as_millis() as i64),
            duration_ms: timer.elapsed().as_millis() as i64,
            examined: report.examined,
            changed: report.changed,
            archived: report.archived,
            status: RunStatus::of(&result),
            error: result.as_ref().err().map(|e| e.message.clone()),
            details: serde_json::Value::Object(report.details).to_string(),
        };
        if kind != JobKind::Reconcile || run.changed > 0 || run.status == RunStatus::Failed {
            svc.runs
                .record(&run)
                .await
                .map_err(|e| JobError::retry(format!("recording the run: {e:#}")))?;
        }
        tracing::info!(kind = %kind, %as_of, examined = run.examined, changed = run.changed,
            archived = run.archived, duration_ms = run.duration_ms, "periodic job ran");
        result.map(|_| run)
    }
}

fn parse<T: DeserializeOwned>(payload: &serde_json::Value) -> JobResult<T> {
    serde_json::from_value(payload.clone())
        .map_err(|e| JobError::permanent(format!("malformed job payload: {e}")))
}

#[async_trait]
impl JobHandler for Dispatcher {
    async fn handle(&self, job: &JobContext) -> JobOutcome {
        let span = info_span!(
            "job", job_id = %job.job_id, kind = %job.kind, attempt = job.attempt,
            request_id = job.envelope.request_id.as_deref().unwrap_or("-"),
            "otel.name" = tracing::field::Empty, "otel.kind" = tracing::field::Empty,
        );
        telemetry::name_span(&span, || format!("job {}", job.kind), "consumer");
        // In exported traces, the job is a child of the request (or job) that caused it.
        telemetry::set_parent(&span, job.envelope.traceparent.as_deref());
        async {
            let delay = self.svc.config.workers.job_delay_ms;
            if delay > 0 {
                tokio::time::sleep(std::time::Duration::from_millis(delay)).await;
            }
            let payload = &job.envelope.payload;
            let request_id = job.envelope.request_id.clone();
            match self
                .execute(job.kind, payload, request_id, Some(&job.job_id))
                .await
            {
                Ok(_) => {
                    info!("job done");
                    JobOutcome::Done
                }
                Err(e) if e.retryable => JobOutcome::Retry(e.message),
                Err(e) => JobOutcome::Fail(e.message),
            }
        }
        .instrument(span)
        .await
    }

    async fn failed(&self, job: &JobContext, message: &str, final_attempt: bool) {
        let request_id = job.envelope.request_id.as_deref().unwrap_or("-");
        // During an outage every job fails alike: one line per kind and message per
        // interval, with how many were dropped (the queue keeps every job's error).
        let site = if final_attempt {
            "job failed for good"
        } else {
            "job failed; will retry"
        };
        if let Some(repeated) = repeats::admit(site, &format!("{}: {message}", job.kind)) {
            if final_attempt {
                error!(job_id = %job.job_id, kind = %job.kind, attempt = job.attempt, request_id, %message, repeated, "job failed for good");
            } else {
                warn!(job_id = %job.job_id, kind = %job.kind, attempt = job.attempt, request_id, %message, repeated, "job failed; will retry");
            }
        }
        let (svc, now) = (&self.svc, self.svc.clock.now());
        let recorded = match job.kind {
            JobKind::ProcessSource => match parse::<ProcessSource>(&job.envelope.payload) {
                Ok(p) => {
                    svc.graph
                        .record_processing_error(&p.entity_key, Some(message), now)
                        .await
                }
                Err(_) => Ok(()),
            },
            JobKind::ExtractEntities => match parse::<ExtractEntities>(&job.envelope.payload) {
                Ok(p) => {
                    svc.graph
                        .record_extraction_error(
                            &p.entity_key,
                            &p.user_id,
                            message,
                            final_attempt,
                            now,
                        )
                        .await
                }
                Err(_) => Ok(()),
            },
            // About no one Source: `run_periodic` records their failed runs.
            JobKind::Reconcile
            | JobKind::Decay
            | JobKind::PromoteStorylines
            | JobKind::RefreshStorylines
            | JobKind::PromoteMacros
            | JobKind::RefreshMacros
            | JobKind::ConsolidateDescriptions
            | JobKind::CleanupNotes
            | JobKind::ConsolidateEpisodic
            | JobKind::InferCausalLinks => Ok(()),
        };
        if let Err(e) = recorded {
            warn!(job_id = %job.job_id, error = %e, "could not record the failure on the source");
        }
    }
}
