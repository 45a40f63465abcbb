//! Prometheus metrics: one recorder per process, installed on first use (tests start
//! many apps in one process), rendered by the API's and the worker's `GET /metrics`.
//!
//! Every metric name is defined here, once, with its help text; the recording helpers
//! (`record.rs`) are the only way the rest of the code touches the recorder, so a label
//! set cannot drift between call sites. Labels never hold ids or raw paths (cardinality):
//! routes are templates, job kinds and providers are closed sets.

mod record;
#[cfg(test)]
mod tests;

use std::sync::OnceLock;
use std::time::Duration;

use metrics::{Unit, describe_counter, describe_gauge, describe_histogram};
use metrics_exporter_prometheus::{PrometheusBuilder, PrometheusHandle};

use cosmo_core::jobs::StateCount;

pub use self::record::{
    http_request, job_already_finished, job_ended, job_started, model_call, refresh_queue_depth,
    retrieval_degraded,
};

/// HTTP requests answered by the API, by `method`, `route` (template) and `status`.
pub const HTTP_REQUESTS: &str = "cosmo_http_requests_total";
/// Time to answer an HTTP request, same labels as [`HTTP_REQUESTS`].
pub const HTTP_REQUEST_DURATION: &str = "cosmo_http_request_duration_seconds";
/// Job attempts started by this process's workers, by `kind`.
pub const JOBS_STARTED: &str = "cosmo_jobs_started_total";
/// Job attempts that succeeded, by `kind`.
pub const JOBS_SUCCEEDED: &str = "cosmo_jobs_succeeded_total";
/// Job attempts that failed and will be tried again after a backoff, by `kind`.
pub const JOBS_RETRIED: &str = "cosmo_jobs_retried_total";
/// Jobs that failed for good (permanent error or last attempt), by `kind`.
pub const JOBS_FAILED: &str = "cosmo_jobs_failed_total";
/// Jobs handed to this process again that another run had already finished (its
/// acknowledgement lost to an outage or a crash): ended without running, by `kind`.
pub const JOBS_ALREADY_FINISHED: &str = "cosmo_jobs_already_finished_total";
/// Duration of one job attempt, by `kind` and `outcome` (`succeeded`, `retried`,
/// `failed`).
pub const JOB_DURATION: &str = "cosmo_job_duration_seconds";
/// Jobs in the queue, by `kind` and `state` (a [`JobState`](cosmo_core::jobs::JobState):
/// `pending`, `running`, `done`, `failed`, `dead`), read from the queue at each scrape.
pub const QUEUE_JOBS: &str = "cosmo_queue_jobs";
/// Failed reads of the queue's counts for [`QUEUE_JOBS`] (the gauges then keep their
/// last values).
pub const QUEUE_DEPTH_ERRORS: &str = "cosmo_queue_depth_errors_total";
/// Model calls made, failed ones included, by `provider` and `task`.
pub const MODEL_CALLS: &str = "cosmo_model_calls_total";
/// Model calls that failed, by `provider`, `task` and `error`.
pub const MODEL_ERRORS: &str = "cosmo_model_errors_total";
/// Tokens used by successful model calls, by `provider`, `task` and `type`
/// (`prompt`, `completion`).
pub const MODEL_TOKENS: &str = "cosmo_model_tokens_total";
/// Duration of one model call, by `provider` and `task`.
pub const MODEL_CALL_DURATION: &str = "cosmo_model_call_duration_seconds";

/// Explore and context requests answered without query embeddings, from full text and
/// graph links alone, because the embedding model was unavailable; by `activity`
/// (`explore`, `context`) and `reason` ([`Degraded`]).
pub const RETRIEVAL_DEGRADED: &str = "cosmo_retrieval_degraded_total";

/// The `route` label of requests no route matched (404s for unknown paths).
pub const UNMATCHED_ROUTE: &str = "unmatched";

/// Histogram buckets (seconds): from a fast read to a slow model-backed job.
const BUCKETS: [f64; 14] = [
    0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0, 30.0, 60.0, 300.0,
];

/// How a job attempt ended, as the job metrics count it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum JobEnd {
    Succeeded,
    /// Failed; another attempt follows after the backoff.
    Retried,
    /// Failed for good.
    Failed,
}

impl JobEnd {
    pub fn as_str(self) -> &'static str {
        match self {
            Self::Succeeded => "succeeded",
            Self::Retried => "retried",
            Self::Failed => "failed",
        }
    }
}

/// Why a retrieval request went without its query embeddings ([`RETRIEVAL_DEGRADED`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Degraded {
    /// The embedding model answered an error worth retrying (an outage, a rate limit, a
    /// key or model it does not accept).
    Unavailable,
    /// No answer within `retrieval.embedding_timeout_ms`.
    Timeout,
}

impl Degraded {
    pub fn as_str(self) -> &'static str {
        match self {
            Self::Unavailable => "unavailable",
            Self::Timeout => "timeout",
        }
    }
}

/// The process-wide render handle; installs the recorder on first call.
fn handle() -> &'static PrometheusHandle {
    static HANDLE: OnceLock<PrometheusHandle> = OnceLock::new();
    HANDLE.get_or_init(|| {
        let recorder = PrometheusBuilder::new()
            .set_buckets(&BUCKETS)
            .expect("buckets are not empty")
            .build_recorder();
        let handle = recorder.handle();
        if metrics::set_global_recorder(recorder).is_err() {
            tracing::warn!("another metrics recorder is installed; /metrics will be empty");
        }
        describe();
        // Histogram samples wait in the recorder until upkeep folds them into buckets:
        // a scrape does it too, this bounds the memory between scrapes.
        let upkeep = handle.clone();
        let _ = std::thread::Builder::new()
            .name("metrics-upkeep".into())
            .spawn(move || {
                loop {
                    std::thread::sleep(Duration::from_secs(5));
                    upkeep.run_upkeep();
                }
            });
        handle
    })
}

/// Installs the recorder now (idempotent); the helpers below also do it on first use.
pub fn install() {
    handle();
}

fn describe() {
    describe_counter!(
        HTTP_REQUESTS,
        "HTTP requests answered, by method, route template and status."
    );
    describe_histogram!(
        HTTP_REQUEST_DURATION,
        Unit::Seconds,
        "Time to answer an HTTP request."
    );
    describe_counter!(
        JOBS_STARTED,
        "Job attempts started by this process, by kind."
    );
    describe_counter!(JOBS_SUCCEEDED, "Job attempts that succeeded, by kind.");
    describe_counter!(
        JOBS_RETRIED,
        "Job attempts that failed and will be retried, by kind."
    );
    describe_counter!(
        JOBS_FAILED,
        "Jobs that failed for good (permanent error or last attempt), by kind."
    );
    describe_counter!(
        JOBS_ALREADY_FINISHED,
        "Jobs handed out again that another run had finished: ended without running, by kind."
    );
    describe_histogram!(
        JOB_DURATION,
        Unit::Seconds,
        "Duration of one job attempt, by kind and outcome."
    );
    describe_gauge!(
        QUEUE_JOBS,
        "Jobs in the queue, by kind and state, read at most 2 s before this scrape."
    );
    describe_counter!(
        QUEUE_DEPTH_ERRORS,
        "Failed reads of the queue's counts for cosmo_queue_jobs."
    );
    describe_counter!(
        MODEL_CALLS,
        "Model calls, failed ones included, by provider and task."
    );
    describe_counter!(
        MODEL_ERRORS,
        "Model calls that failed, by provider, task and error."
    );
    describe_counter!(
        MODEL_TOKENS,
        "Tokens used by model calls, by provider, task and type (prompt, completion)."
    );
    describe_histogram!(
        MODEL_CALL_DURATION,
        Unit::Seconds,
        "Duration of one model call, by provider and task."
    );
    describe_counter!(
        RETRIEVAL_DEGRADED,
        "Explore and context requests answered without query embeddings (the embedding model was unavailable), by activity and reason."
    );
}

/// The text exposition format of every metric of this process, the queue's depth from
/// `counts` (see [`refresh_queue_depth`]).
pub async fn render<E: std::fmt::Display>(
    counts: impl Future<Output = Result<Vec<StateCount>, E>>,
) -> String {
    refresh_queue_depth(counts).await;
    let handle = handle();
    handle.run_upkeep();
    handle.render()
}

/// The `Content-Type` of [`render`]'s output.
pub const CONTENT_TYPE: &str = "text/plain; version=0.0.4; charset=utf-8";
