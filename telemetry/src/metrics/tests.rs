//! Tests of the metrics: what each recording helper shows in this process's scrape.

use std::sync::Arc;

use async_trait::async_trait;

use super::*;
use cosmo_core::jobs::JobKind;
use cosmo_models::{Completion, Embedder, LlmError, LlmResult, Usage};

use crate::counted::Counted;

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
