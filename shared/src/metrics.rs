//! Prometheus metrics: one recorder per process, installed on first use (tests start
//! many apps in one process), rendered by the API's and the worker's `GET /metrics`.
//!
//! Every metric name is defined here, once, with its help text; the recording helpers
//! below are the only way the rest of the code touches the recorder, so a label set
//! cannot drift between call sites. Labels never hold ids or raw paths (cardinality):
//! routes are templates, job kinds and providers are closed sets.

use std::collections::HashMap;
use std::sync::OnceLock;
use std::time::{Duration, Instant};

use metrics::{Unit, counter, describe_counter, describe_gauge, describe_histogram, gauge};
use metrics_exporter_prometheus::{PrometheusBuilder, PrometheusHandle};

use crate::llm::{LlmError, Usage};
use crate::queue::{JobKind, JobQueue, JobState};

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
/// Jobs in the queue, by `kind` and `state` (a [`JobState`]: `pending`, `running`,
/// `done`, `failed`, `dead`), read from the queue at each scrape.
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
}

/// Records one answered HTTP request. `route` is the matched route template (or
/// [`UNMATCHED_ROUTE`]), never the raw path.
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

/// Sets the queue-depth gauges from the queue's current counts (at most
/// [`QUEUE_DEPTH_MAX_AGE`] old). Every known kind and state is set, to 0 when absent, so
/// a drained queue shows 0 rather than its last non-zero number. One refresh runs at a
/// time; a failed read leaves the gauges as they were and counts a
/// [`QUEUE_DEPTH_ERRORS`].
pub async fn refresh_queue_depth(queue: &dyn JobQueue) {
    static LAST: tokio::sync::Mutex<Option<Instant>> = tokio::sync::Mutex::const_new(None);
    handle();
    let mut last = LAST.lock().await;
    if last.is_some_and(|at| at.elapsed() < QUEUE_DEPTH_MAX_AGE) {
        return;
    }
    let counts = match queue.state_counts().await {
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

/// The text exposition format of every metric of this process, queue depth read now.
pub async fn render(queue: &dyn JobQueue) -> String {
    refresh_queue_depth(queue).await;
    let handle = handle();
    handle.run_upkeep();
    handle.render()
}

/// The `Content-Type` of [`render`]'s output.
pub const CONTENT_TYPE: &str = "text/plain; version=0.0.4; charset=utf-8";

#[cfg(test)]
mod tests {
    use std::sync::Arc;

    use async_trait::async_trait;

    use super::*;
    use crate::llm::counted::Counted;
    use crate::llm::{Completion, Embedder, LlmResult};

    /// The value of the sample of `name` with exactly `labels` in this process's scrape.
    fn value(name: &str, labels: &[(&str, &str)]) -> Option<f64> {
        handle().run_upkeep();
        let mut wanted: Vec<String> = labels.iter().map(|(k, v)| format!("{k}=\"{v}\"")).collect();
        wanted.sort();
        handle().render().lines().find_map(|line| {
            let (series, value) = line.rsplit_once(' ')?;
            let (n, rest) = series.split_once('{').unwrap_or((series, "}"));
            let mut got: Vec<String> = rest
                .trim_end_matches('}')
                .split(',')
                .filter(|l| !l.is_empty())
                .map(str::to_owned)
                .collect();
            got.sort();
            (n == name && got == wanted).then(|| value.parse().ok())?
        })
    }

    #[test]
    fn requests_are_counted_by_method_route_and_status() {
        http_request("BREW", "/t1/{key}", 418, Duration::from_millis(3));
        http_request("GET", "/t1/{key}", 200, Duration::from_millis(3));
        http_request("GET", "/t1/{key}", 200, Duration::from_millis(3));
        let labels = |m, s| [("method", m), ("route", "/t1/{key}"), ("status", s)];
        assert_eq!(value(HTTP_REQUESTS, &labels("GET", "200")), Some(2.0));
        assert_eq!(
            value(HTTP_REQUESTS, &labels("other", "418")),
            Some(1.0),
            "unknown methods share one label"
        );
        assert_eq!(
            value(
                &format!("{HTTP_REQUEST_DURATION}_count"),
                &labels("GET", "200")
            ),
            Some(2.0)
        );
    }

    #[test]
    fn each_job_end_has_its_counter_and_outcome() {
        let kind = JobKind::CleanupNotes;
        job_started(kind);
        job_ended(kind, JobEnd::Retried, Duration::from_millis(5));
        job_started(kind);
        job_ended(kind, JobEnd::Failed, Duration::from_millis(5));
        let k = [("kind", "cleanup-notes")];
        assert_eq!(value(JOBS_STARTED, &k), Some(2.0));
        assert_eq!(value(JOBS_RETRIED, &k), Some(1.0));
        assert_eq!(value(JOBS_FAILED, &k), Some(1.0));
        assert_eq!(value(JOBS_SUCCEEDED, &k), None);
        assert_eq!(
            value(
                &format!("{JOB_DURATION}_count"),
                &[("kind", "cleanup-notes"), ("outcome", "retried")]
            ),
            Some(1.0)
        );
    }

    /// Answers once with usage, then is rate limited.
    #[derive(Debug, Default)]
    struct Flaky(std::sync::atomic::AtomicUsize);

    #[async_trait]
    impl Embedder for Flaky {
        fn dimensions(&self) -> usize {
            2
        }

        async fn embed(&self, texts: &[String]) -> LlmResult<Vec<Vec<f32>>> {
            if self.0.fetch_add(1, std::sync::atomic::Ordering::SeqCst) > 0 {
                return Err(LlmError::RateLimited {
                    provider: "openai".into(),
                });
            }
            Ok(Completion {
                value: texts.iter().map(|_| vec![0.0, 1.0]).collect(),
                usage: Usage {
                    provider: "openai".into(),
                    model: "m".into(),
                    prompt_tokens: 11,
                    completion_tokens: 0,
                },
            })
        }
    }

    #[tokio::test]
    async fn model_calls_count_tokens_and_errors_whoever_calls() {
        let model = Counted::<dyn Embedder>::new(Arc::new(Flaky::default()), "openai", "t3");
        assert!(model.embed(&["a".into()]).await.is_ok());
        assert!(model.embed(&["b".into()]).await.is_err());
        let p = ("provider", "openai");
        assert_eq!(value(MODEL_CALLS, &[p, ("task", "t3")]), Some(2.0));
        assert_eq!(
            value(MODEL_TOKENS, &[p, ("task", "t3"), ("type", "prompt")]),
            Some(11.0)
        );
        assert_eq!(
            value(
                MODEL_ERRORS,
                &[p, ("task", "t3"), ("error", "rate_limited")]
            ),
            Some(1.0)
        );
        assert_eq!(model.dimensions(), 2);
    }
}
