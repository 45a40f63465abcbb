//! A worker process: the job kinds it serves (`--jobs`), how many of each at once
//! (`--concurrency`), and a health port (`/healthz`, `/metrics`). Scale by running more
//! of them.

use std::future::Future;
use std::sync::Arc;
use std::time::Duration;

use cosmo_shared::queue::JobKind;
use cosmo_shared::queue::runtime::{self, WorkerOptions};
use cosmo_shared::services::Services;

use crate::dispatch::Dispatcher;

/// The kinds `workers.jobs` names, or all of them.
pub fn kinds(svc: &Services) -> anyhow::Result<Vec<JobKind>> {
    let names = &svc.config.workers.jobs;
    if names.is_empty() {
        return Ok(JobKind::ALL.to_vec());
    }
    names
        .iter()
        .map(|n| {
            n.parse::<JobKind>()
                .map_err(|e| anyhow::anyhow!("--jobs: {e}"))
        })
        .collect()
}

/// Runs this process's workers until `shutdown` resolves; in-flight jobs then finish
/// within `workers.shutdown_timeout_secs` or go back to the queue.
pub async fn run(
    svc: Services,
    shutdown: impl Future<Output = ()> + Send + 'static,
) -> anyhow::Result<()> {
    // Boxed here, so the worker runtime is compiled once, in this crate, rather than in
    // each binary that calls this with its own kind of signal.
    run_until(svc, Box::pin(shutdown)).await
}

async fn run_until(
    svc: Services,
    shutdown: std::pin::Pin<Box<dyn Future<Output = ()> + Send>>,
) -> anyhow::Result<()> {
    let cfg = &svc.config;
    let opts = WorkerOptions {
        kinds: kinds(&svc)?,
        name: cfg
            .workers
            .name
            .clone()
            .unwrap_or_else(|| "worker".to_owned()),
        queue: cfg.queue.clone(),
        jobs: cfg.jobs.clone(),
        shutdown_timeout: Duration::from_secs(cfg.workers.shutdown_timeout_secs),
    };
    if cfg.workers.health_port != 0 {
        serve_health(svc.clone(), cfg.workers.health_port).await?;
    }
    tracing::info!(kinds = ?opts.kinds, queue = svc.queue.backend(), "workers starting");
    runtime::run_workers(
        svc.db.clone(),
        Arc::new(Dispatcher::new(svc.clone())),
        opts,
        shutdown,
    )
    .await
}

/// The worker's health port: `GET /healthz`, 200 while the graph store and the queue
/// answer; `GET /metrics`, this process's metrics in the Prometheus text format (no
/// authentication: keep the port private to the operator's network).
async fn serve_health(svc: Services, port: u16) -> anyhow::Result<()> {
    use axum::http::{StatusCode, header};
    use axum::routing::get;
    use cosmo_shared::metrics;
    let scraped = svc.clone();
    let app = axum::Router::new()
        .route(
            "/healthz",
            get(move || {
                let svc = svc.clone();
                async move {
                    match (svc.graph.ping().await, svc.queue.ping().await) {
                        (Ok(()), Ok(())) => (StatusCode::OK, "ok"),
                        _ => (StatusCode::SERVICE_UNAVAILABLE, "not ready"),
                    }
                }
            }),
        )
        .route(
            "/metrics",
            get(move || {
                let svc = scraped.clone();
                async move {
                    (
                        [(header::CONTENT_TYPE, metrics::CONTENT_TYPE)],
                        metrics::render(svc.queue.state_counts()).await,
                    )
                }
            }),
        );
    let listener = tokio::net::TcpListener::bind(("0.0.0.0", port)).await?;
    tokio::spawn(async move { axum::serve(listener, app).await });
    Ok(())
}
