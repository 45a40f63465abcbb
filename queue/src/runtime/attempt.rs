//! One attempt of a job, as apalis hands it to the worker: take the job's lease, decode
//! the payload, run the handler under the kind's timeout with panics caught, count the
//! attempt, and turn its outcome into done, a retry after the backoff (the job's
//! `run_at` moved), or a failure for good.

use std::time::{Duration, Instant};

use apalis::prelude::*;
use futures::FutureExt;

use super::hold::{Taken, keep_lease, settle, take_lease};
use super::{Ctx, JobContext, JobOutcome};
use crate::JobEnvelope;
use crate::db::Db;
use cosmo_core::query_file;
use cosmo_telemetry::metrics::{self, JobEnd};

/// Task id, attempt and attempt budget of the running task.
#[derive(Debug, Clone)]
pub(super) struct TaskMeta {
    id: String,
    attempt: usize,
    max_attempts: usize,
}

impl<Args: Sync> FromRequest<Task<Args>> for TaskMeta {
    type Error = MissingDataError;

    async fn from_request(t: &Task<Args>) -> Result<Self, Self::Error> {
        Ok(Self {
            id: t
                .task_id()
                .map(ToString::to_string)
                .ok_or_else(|| MissingDataError::NotFound("TaskId".into()))?,
            attempt: t.attempt(),
            max_attempts: t.max_attempts().unwrap_or(1),
        })
    }
}

pub(super) async fn handle(
    args: serde_json::Value,
    meta: TaskMeta,
    ctx: Data<Ctx>,
) -> Result<(), BoxDynError> {
    let holder = ulid::Ulid::generate().to_string();
    match take_lease(&ctx, &meta.id, &holder).await {
        Taken::Held => {}
        Taken::Finished => {
            metrics::job_already_finished(ctx.kind);
            tracing::info!(job_id = %meta.id, kind = %ctx.kind,
                "job already finished by an earlier run (its acknowledgement was lost); not run again");
            return Ok(());
        }
        Taken::Busy => {
            let delay = ctx.settings.backoff(meta.attempt as u32, 0.0);
            if let Err(e) = postpone(&ctx.db, &meta.id, delay).await {
                tracing::warn!(job_id = %meta.id, error = %e, "could not schedule the retry; it runs at once");
            }
            return Err("another run of this job held it for the whole job timeout".into());
        }
    }
    let result = run(args, &meta, &ctx, &holder).await;
    // The lease says how the run ended: finished (a later run of the job ends without
    // running) or released (the next attempt takes it afresh).
    let settled = match &result {
        Ok(()) => settle("finish", || ctx.leases.finish(&meta.id, &holder)).await,
        Err(_) => settle("release", || ctx.leases.release(&meta.id, &holder)).await,
    };
    if !settled {
        tracing::warn!(job_id = %meta.id,
            "could not record the end of the run on its lease: a later run of the job waits for it to fall silent");
    }
    result
}

/// One run of a job whose lease this run holds.
async fn run(
    args: serde_json::Value,
    meta: &TaskMeta,
    ctx: &Ctx,
    holder: &str,
) -> Result<(), BoxDynError> {
    // Counted here, where timeouts, panics and the retry decision are known.
    let started = Instant::now();
    metrics::job_started(ctx.kind);
    let envelope: JobEnvelope = match serde_json::from_value(args) {
        Ok(e) => e,
        Err(e) => {
            metrics::job_ended(ctx.kind, JobEnd::Failed, started.elapsed());
            return Err(AbortError::new(format!("undecodable job payload: {e}")).into());
        }
    };
    let job = JobContext {
        job_id: meta.id.clone(),
        kind: ctx.kind,
        attempt: meta.attempt as u32,
        max_attempts: meta.max_attempts as u32,
        envelope,
    };
    let run = tokio::time::timeout(ctx.settings.timeout(), ctx.handler.handle(&job));
    let guarded = async {
        tokio::select! {
            ran = run => Some(ran),
            () = keep_lease(ctx, &meta.id, holder) => None,
        }
    };
    let outcome = match std::panic::AssertUnwindSafe(guarded).catch_unwind().await {
        Ok(Some(Ok(outcome))) => outcome,
        Ok(Some(Err(_))) => {
            JobOutcome::Retry(format!("timed out after {} s", ctx.settings.timeout_secs))
        }
        Ok(None) => {
            // Silent for longer than the takeover time while the database answered
            // others: another run has the job now, and its outcome is the job's.
            metrics::job_ended(ctx.kind, JobEnd::Retried, started.elapsed());
            tracing::warn!(job_id = %meta.id, kind = %ctx.kind,
                "another run took this job over; this run stopped");
            return Err("another run took this job over".into());
        }
        Err(panic) => JobOutcome::Retry(format!("job panicked: {}", panic_message(&panic))),
    };
    let end = match &outcome {
        JobOutcome::Done => JobEnd::Succeeded,
        JobOutcome::Retry(_) if meta.attempt < meta.max_attempts => JobEnd::Retried,
        JobOutcome::Retry(_) | JobOutcome::Fail(_) => JobEnd::Failed,
    };
    metrics::job_ended(ctx.kind, end, started.elapsed());
    match outcome {
        JobOutcome::Done => Ok(()),
        JobOutcome::Fail(message) => {
            ctx.handler.failed(&job, &message, true).await;
            Err(AbortError::new(message).into())
        }
        JobOutcome::Retry(message) => {
            let final_attempt = meta.attempt >= meta.max_attempts;
            if !final_attempt {
                let delay = ctx
                    .settings
                    .backoff(job.attempt, rand::random::<f64>() * 2.0 - 1.0);
                if let Err(e) = postpone(&ctx.db, &meta.id, delay).await {
                    tracing::warn!(job_id = %meta.id, error = %e, "could not schedule the retry; it runs at once");
                }
            }
            ctx.handler.failed(&job, &message, final_attempt).await;
            Err(message.into())
        }
    }
}

fn panic_message(panic: &Box<dyn std::any::Any + Send>) -> String {
    panic
        .downcast_ref::<&str>()
        .map(|s| (*s).to_owned())
        .or_else(|| panic.downcast_ref::<String>().cloned())
        .unwrap_or_else(|| "unknown panic".to_owned())
}

/// Moves a job's `run_at` forward; the failure acknowledgement leaves it untouched, and
/// fetching skips jobs whose `run_at` is in the future.
async fn postpone(db: &Db, job_id: &str, delay: Duration) -> sqlx::Result<()> {
    match db {
        Db::Sqlite(pool) => {
            let at = (chrono::Utc::now() + delay).timestamp() + 1; // whole seconds, rounded up
            sqlx::query(query_file!("attempt/sqlite/postpone.sql"))
                .bind(at)
                .bind(job_id)
                .execute(pool)
                .await?;
        }
        Db::Postgres(pool) => {
            sqlx::query(query_file!("attempt/postgres/postpone.sql"))
                .bind(delay.as_secs_f64())
                .bind(job_id)
                .execute(pool)
                .await?;
        }
    }
    Ok(())
}
