//! The recording helpers: one per thing counted (an HTTP request, a job attempt, a model
//! call) and the queue-depth gauges, each setting its metrics with their labels.

use std::collections::HashMap;
use std::time::{Duration, Instant};

use metrics::{counter, gauge};

use super::{
    HTTP_REQUEST_DURATION, HTTP_REQUESTS, JOB_DURATION, JOBS_ALREADY_FINISHED, JOBS_FAILED,
    JOBS_RETRIED, JOBS_STARTED, JOBS_SUCCEEDED, JobEnd, MODEL_CALL_DURATION, MODEL_CALLS,
    MODEL_ERRORS, MODEL_TOKENS, QUEUE_DEPTH_ERRORS, QUEUE_JOBS, RETRIEVAL_DEGRADED, handle,
};
use cosmo_core::jobs::{JobKind, JobState, StateCount};
use cosmo_models::{LlmError, Usage};

/// Records one answered HTTP request. `route` is the matched route template (or
/// [`UNMATCHED_ROUTE`](super::UNMATCHED_ROUTE)), never the raw path.
pub fn http_request(method: &str, route: &str, status: u16, elapsed: Duration) {
    handle();
    // Standard methods only: anything else is one label value, not one per spelling.
    let method = match method {
        "GET" | "HEAD" | "POST" | "PUT" | "PATCH" | "DELETE" | "OPTIONS" => method.to_owned(),
        _ => "other".to_owned(),
    };
    let labels = [
        ("method", method),
        ("route", route.to_owned()),
        ("status", status.to_string()),
    ];
    counter!(HTTP_REQUESTS, &labels).increment(1);
    metrics::histogram!(HTTP_REQUEST_DURATION, &labels).record(elapsed.as_secs_f64());
}

/// Records that a worker started an attempt of a `kind` job.
pub fn job_started(kind: JobKind) {
    handle();
    counter!(JOBS_STARTED, "kind" => kind.as_str()).increment(1);
}

/// Records that a `kind` job handed to this process had been finished by another run.
pub fn job_already_finished(kind: JobKind) {
    handle();
    counter!(JOBS_ALREADY_FINISHED, "kind" => kind.as_str()).increment(1);
}

/// Records how an attempt of a `kind` job ended and how long it ran.
pub fn job_ended(kind: JobKind, end: JobEnd, elapsed: Duration) {
    handle();
    let name = match end {
        JobEnd::Succeeded => JOBS_SUCCEEDED,
        JobEnd::Retried => JOBS_RETRIED,
        JobEnd::Failed => JOBS_FAILED,
    };
    counter!(name, "kind" => kind.as_str()).increment(1);
    metrics::histogram!(JOB_DURATION, "kind" => kind.as_str(), "outcome" => end.as_str())
        .record(elapsed.as_secs_f64());
}

/// Records that an `activity` (`explore`, `context`) request went without its query
/// embeddings, and why.
pub fn retrieval_degraded(activity: &'static str, reason: super::Degraded) {
    handle();
    counter!(RETRIEVAL_DEGRADED, "activity" => activity, "reason" => reason.as_str()).increment(1);
}

/// Records one model call of `provider` for `task` (`processing`, `extraction`,
/// `notes`, `summaries`, `embeddings`): its duration, and its tokens or its error.
pub fn model_call(
    provider: &'static str,
    task: &'static str,
    elapsed: Duration,
    outcome: Result<&Usage, &LlmError>,
) {
    handle();
    let labels = [("provider", provider), ("task", task)];
    counter!(MODEL_CALLS, &labels).increment(1);
    metrics::histogram!(MODEL_CALL_DURATION, &labels).record(elapsed.as_secs_f64());
    match outcome {
        Ok(usage) => {
            for (kind, n) in [
                ("prompt", usage.prompt_tokens),
                ("completion", usage.completion_tokens),
            ] {
                counter!(MODEL_TOKENS, "provider" => provider, "task" => task, "type" => kind)
                    .increment(n);
            }
        }
        Err(e) => {
            let error = match e {
                LlmError::RateLimited { .. } => "rate_limited",
                LlmError::Timeout { .. } => "timeout",
                LlmError::Unavailable { .. } => "unavailable",
                LlmError::Malformed { .. } => "malformed",
                LlmError::Refused { .. } => "refused",
            };
            counter!(MODEL_ERRORS, "provider" => provider, "task" => task, "error" => error)
                .increment(1);
        }
    }
}

/// The queue is read at most this often for `/metrics`, however often (and however
/// many at once) it is scraped: `/metrics` needs no key, and the count is a scan.
const QUEUE_DEPTH_MAX_AGE: Duration = Duration::from_secs(2);

/// Sets the queue-depth gauges from the queue's current counts, `counts` (a read of the
/// queue, awaited only when the gauges are older than [`QUEUE_DEPTH_MAX_AGE`]). Every known kind and state is set, to 0 when absent, so
/// a drained queue shows 0 rather than its last non-zero number. One refresh runs at a
/// time; a failed read leaves the gauges as they were and counts a
/// [`QUEUE_DEPTH_ERRORS`].
pub async fn refresh_queue_depth<E: std::fmt::Display>(
    counts: impl Future<Output = Result<Vec<StateCount>, E>>,
) {
    static LAST: tokio::sync::Mutex<Option<Instant>> = tokio::sync::Mutex::const_new(None);
    handle();
    let mut last = LAST.lock().await;
    if last.is_some_and(|at| at.elapsed() < QUEUE_DEPTH_MAX_AGE) {
        return;
    }
    let counts = match counts.await {
        Ok(counts) => counts,
        Err(e) => {
            tracing::warn!(error = %e, "reading queue counts for /metrics failed");
            counter!(QUEUE_DEPTH_ERRORS).increment(1);
            return;
        }
    };
    let mut depth: HashMap<(String, &'static str), i64> = JobKind::ALL
        .iter()
        .flat_map(|kind| {
            JobState::ALL
                .iter()
                .map(|s| ((kind.as_str().to_owned(), s.as_str()), 0))
        })
        .collect();
    for c in counts {
        depth.insert((c.kind.to_string(), c.state.as_str()), c.count);
    }
    for ((kind, state), n) in depth {
        gauge!(QUEUE_JOBS, "kind" => kind, "state" => state).set(n as f64);
    }
    *last = Some(Instant::now());
}
