//! `GET /metrics`: `cosmo serve` shows its requests (by route template), its jobs, the
//! queue depth and its model calls; in a fleet, a worker shows its own job counters on
//! its health port while the API shows its requests and the shared queue's depth.

use std::path::Path;
use std::time::Duration;

use cosmo_tests::http::Api;
use cosmo_tests::pg::TempPostgres;
use cosmo_tests::process::{self, Proc};
use cosmo_tests::prometheus::{Scrape, scrape};
use cosmo_tests::{fixtures, wait_for};
use reqwest::StatusCode;

const KEY: &str = "metrics-key";
const PIPELINE: [&str; 2] = ["process-source", "extract-entities"];

/// Scrapes `url` until `ready` holds: a job's counters and its queue row are written
/// just after its effect on the Source becomes visible.
async fn scrape_until(url: &str, what: &str, ready: impl Fn(&Scrape) -> bool) -> Scrape {
    wait_for(what, Duration::from_secs(30), || async {
        let s = scrape(url).await;
        ready(&s).then_some(s)
    })
    .await
}

fn count(s: &Scrape, name: &str, labels: &[(&str, &str)]) -> f64 {
    s.value(name, labels).unwrap_or(0.0)
}

/// Both pipeline jobs succeeded and the queue says so.
fn pipeline_done(s: &Scrape) -> bool {
    PIPELINE.iter().all(|kind| {
        count(s, "cosmo_jobs_succeeded_total", &[("kind", kind)]) >= 1.0
            && count(s, "cosmo_queue_jobs", &[("kind", kind), ("state", "done")]) >= 1.0
    })
}

/// Every pipeline job this process started succeeded, once, and was timed.
fn assert_pipeline_jobs_counted(s: &Scrape) {
    for kind in PIPELINE {
        let labels = [("kind", kind)];
        assert_eq!(count(s, "cosmo_jobs_started_total", &labels), 1.0, "{kind}");
        assert_eq!(
            count(s, "cosmo_jobs_succeeded_total", &labels),
            1.0,
            "{kind}"
        );
        assert_eq!(count(s, "cosmo_jobs_retried_total", &labels), 0.0, "{kind}");
        assert_eq!(count(s, "cosmo_jobs_failed_total", &labels), 0.0, "{kind}");
        assert_eq!(
            s.value(
                "cosmo_job_duration_seconds_count",
                &[("kind", kind), ("outcome", "succeeded")]
            ),
            Some(1.0),
            "{kind}: one timed attempt"
        );
    }
    assert_eq!(s.types["cosmo_jobs_started_total"], "counter");
    assert_eq!(s.types["cosmo_job_duration_seconds"], "histogram");
}

/// The offline model's calls for the pipeline's tasks, with their tokens.
fn assert_model_calls_counted(s: &Scrape) {
    for task in ["processing", "extraction", "embeddings"] {
        let labels = [("provider", "offline"), ("task", task)];
        assert!(
            count(s, "cosmo_model_calls_total", &labels) >= 1.0,
            "{task} calls counted"
        );
        assert!(
            count(
                s,
                "cosmo_model_tokens_total",
                &[labels[0], labels[1], ("type", "prompt")]
            ) > 0.0,
            "{task} prompt tokens counted"
        );
    }
    assert!(
        count(
            s,
            "cosmo_model_tokens_total",
            &[("task", "processing"), ("type", "completion")]
        ) > 0.0
    );
    assert_eq!(count(s, "cosmo_model_errors_total", &[]), 0.0);
}

#[tokio::test]
async fn cosmo_serve_exposes_requests_jobs_queue_depth_and_model_calls() {
    let dir = tempfile::tempdir().unwrap();
    let (_server, api) = process::embedded(dir.path(), KEY, &[]).await;
    let key = api.post_source(&fixtures::text_note("alex")).await;
    api.wait_extracted(&key).await;
    let (status, _) = api.get("/no/such/endpoint").await;
    assert_eq!(status, StatusCode::NOT_FOUND);

    // No API key: /metrics is for the operator's scraper.
    let url = format!("{}/metrics", api.base);
    let s = scrape_until(&url, "both pipeline jobs in /metrics", pipeline_done).await;

    let requests = "cosmo_http_requests_total";
    assert_eq!(
        s.value(
            requests,
            &[
                ("method", "POST"),
                ("route", "/api/sources"),
                ("status", "202")
            ]
        ),
        Some(1.0),
        "the one POST /api/sources"
    );
    assert!(
        count(
            &s,
            requests,
            &[
                ("method", "GET"),
                ("route", "/api/sources/{key}"),
                ("status", "200")
            ]
        ) >= 1.0,
        "status polls are counted under the route template"
    );
    assert_eq!(
        s.value(requests, &[("route", "unmatched"), ("status", "404")]),
        Some(1.0),
        "unknown paths share one label"
    );
    assert!(
        s.samples.iter().all(|x| x
            .labels
            .values()
            .all(|v| !v.contains(&key) && !v.contains("/no/such"))),
        "no raw path or key in any label"
    );
    assert_eq!(
        s.value(
            "cosmo_http_request_duration_seconds_count",
            &[("method", "POST"), ("route", "/api/sources")]
        ),
        Some(1.0)
    );

    assert_pipeline_jobs_counted(&s);
    for kind in PIPELINE {
        assert_eq!(
            s.value("cosmo_queue_jobs", &[("kind", kind), ("state", "done")]),
            Some(1.0),
            "{kind}"
        );
        assert_eq!(
            s.value("cosmo_queue_jobs", &[("kind", kind), ("state", "pending")]),
            Some(0.0),
            "{kind}: an empty state is shown as 0"
        );
    }
    assert_eq!(s.types["cosmo_queue_jobs"], "gauge");
    assert_model_calls_counted(&s);
}

/// Environment of a fleet process over `pg`, graph in `dir/graph.db`.
fn env(pg: &TempPostgres, dir: &Path, extra: &[(&str, &str)]) -> Vec<(String, String)> {
    let mut vars = vec![("COSMO_AUTH__BOOTSTRAP_KEY", KEY)];
    vars.extend_from_slice(extra);
    process::env(&pg.url, &dir.join("graph.db"), &vars)
}

#[tokio::test]
async fn a_worker_serves_its_own_job_counters_on_its_health_port() {
    let pg = TempPostgres::create().await;
    let dir = tempfile::tempdir().unwrap();
    let bind = format!("127.0.0.1:{}", process::free_port());
    let _api_proc = Proc::start(
        "ingest-api",
        &[],
        dir.path(),
        &env(&pg, dir.path(), &[("COSMO_SERVER__BIND", &bind)]),
    );
    let api = Api::new(format!("http://{bind}"), Some(KEY));
    process::wait_healthy(&api).await;
    let health = process::free_port().to_string();
    let _worker = Proc::start(
        "workers",
        &[],
        dir.path(),
        &env(&pg, dir.path(), &[("COSMO_WORKERS__HEALTH_PORT", &health)]),
    );

    let key = api.post_source(&fixtures::text_note("alex")).await;
    api.wait_extracted(&key).await;
    let worker = scrape_until(
        &format!("http://127.0.0.1:{health}/metrics"),
        "both pipeline jobs in the worker's /metrics",
        pipeline_done,
    )
    .await;
    assert_pipeline_jobs_counted(&worker);
    assert_model_calls_counted(&worker);

    let api_metrics = scrape(&format!("{}/metrics", api.base)).await;
    assert_eq!(
        api_metrics.value(
            "cosmo_http_requests_total",
            &[
                ("method", "POST"),
                ("route", "/api/sources"),
                ("status", "202")
            ]
        ),
        Some(1.0)
    );
    assert_eq!(
        api_metrics.value("cosmo_jobs_started_total", &[]),
        None,
        "the API process ran no job"
    );
    assert_eq!(
        api_metrics.value(
            "cosmo_queue_jobs",
            &[("kind", "process-source"), ("state", "done")]
        ),
        Some(1.0),
        "the API reads the same queue"
    );
}
