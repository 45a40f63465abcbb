//! # cosmo-ingest-api
//!
//! The thin HTTP API (axum): validates input, writes raw Sources, enqueues jobs, serves
//! reads and user profiles. [`router`] builds the whole app for a [`Services`], so tests
//! can call it without a socket; [`serve`] runs it until shutdown.
//!
//! * [`routes`] — one module per resource.
//! * [`ops`] — what agents do with memory, shared by the REST handlers and the MCP tools.
//! * [`mcp`] — those operations as MCP tools (`POST /mcp`, `cosmo mcp` on stdio).
//! * [`openapi`] — the OpenAPI document (`/api/openapi.json`) and Swagger UI (`/docs`).
//! * [`endpoints`] — the recorded route table ([`routes()`] lists it).
//! * [`extract`] — tenant (API key), request id and JSON body extractors.
//! * [`limits`] — requests in flight per API key.
//! * [`error`] — the error → status → JSON mapping.
//! * [`bootstrap`] — the first API key.
//! * [`observability`] — `/metrics`, request metrics and the request span.
//! * [`base64`] — decoding for HTTP Basic credentials and imported emails.

use axum::Router;
use axum::extract::DefaultBodyLimit;
use axum::http::Method;
use cosmo_shared::services::Services;
use tower_http::request_id::{MakeRequestUuid, PropagateRequestIdLayer, SetRequestIdLayer};
use tower_http::trace::TraceLayer;

use crate::endpoints::Endpoints;

pub mod base64;
pub mod bootstrap;
pub mod endpoints;
pub mod error;
pub mod extract;
pub mod limits;
pub mod mcp;
pub mod observability;
pub mod openapi;
pub mod ops;
pub mod routes;

/// Shared by every handler.
#[derive(Debug, Clone)]
pub struct AppState {
    pub svc: Services,
}

/// Every endpoint, as `(method, path, handler)`. Add new ones here, through
/// [`Endpoints`]: a test checks that each is in the OpenAPI document, and that the
/// document lists nothing else.
fn endpoints() -> Endpoints {
    use routes::*;
    Endpoints::default()
        .post("/api/sources", sources::create)
        .get("/api/sources/{key}", sources::get)
        .delete("/api/sources/{key}", sources::erase)
        .post(
            "/api/sources/{key}/extractions",
            sources::request_extraction,
        )
        .post("/api/sessions/{session_id}/turns", sessions::append)
        .post("/api/sessions/{session_id}/end", sessions::end)
        .get("/api/sessions/{session_id}", sessions::get)
        .get("/api/users/{user_id}", users::get)
        .put("/api/users/{user_id}", users::put)
        .delete("/api/users/{user_id}", users::erase)
        .get("/api/users/{user_id}/stats", users::stats)
        .post(
            "/api/users/{user_id}/extractions",
            users::extract_team_sources,
        )
        .post("/api/explore", explore::explore)
        .post("/api/context", explore::context)
        .get("/api/storylines/{id}", explore::storyline)
        .get("/api/macros/{id}", explore::macro_)
        .get("/api/entities/{key}", entities::get)
        .get("/api/facts", facts::list)
        .post("/api/facts", facts::remember)
        .get("/api/facts/weak", facts::weak)
        .get("/api/facts/{id}", facts::get)
        .delete("/api/facts/{id}", facts::erase)
        .post("/api/facts/{id}/corrections", facts::correct)
        .post("/api/facts/{id}/confirm", facts::confirm)
        .get("/api/facts/{id}/explain", facts::explain)
        .get("/api/memories/{kind}/{key}", memories::get)
        .get("/api/memories/{kind}/{key}/events", memories::events)
        .post("/api/memories/{kind}/{key}/{action}", memories::act)
        .get("/api/admin/usage", admin::usage)
        .get("/api/admin/jobs/runs", admin::job_runs)
        .post("/api/admin/jobs/{kind}/run", admin::run_job)
        .post("/api/admin/jobs/{kind}/dry-run", admin::dry_run)
        .get("/api/admin/jobs", admin::jobs)
        .get("/api/admin/jobs/counts", admin::job_counts)
        .get("/api/admin/jobs/{job_id}", admin::job)
        .post("/api/admin/jobs/{job_id}/retry", admin::retry_job)
        .post("/api/admin/jobs/retry", admin::retry_dead)
        .get("/admin/jobs", dashboard::page)
        .post("/admin/jobs/{job_id}/retry", dashboard::retry)
        .post("/admin/jobs/retry", dashboard::retry_dead)
        .get("/healthz", health::healthz)
        .get("/readyz", health::readyz)
        .get("/metrics", observability::render)
        .post("/mcp", mcp::http)
        .get("/api/openapi.json", openapi::json)
        .merge(openapi::SWAGGER_UI_ROUTES, openapi::swagger_ui())
}

/// `(method, path)` of every endpoint [`router`] serves.
pub fn routes() -> Vec<(Method, &'static str)> {
    endpoints().into_parts().1
}

pub fn router(svc: Services) -> Router {
    let limit = svc.config.server.body_limit_bytes;
    let per_key = svc.config.server.max_concurrent_per_key;
    let deadline = (
        std::time::Duration::from_secs(svc.config.server.request_timeout_secs.max(1)),
        std::time::Duration::from_millis(svc.config.server.lock_wait_ms),
    );
    let (api, _) = endpoints().into_parts();
    let api = api
        .fallback(|| async { error::ApiError::NotFound("no such endpoint".into()) })
        .method_not_allowed_fallback(|method: Method| async move {
            error::ApiError::MethodNotAllowed(format!(
                "{method} is not allowed here; the allow header lists the methods that are"
            ))
        })
        .with_state(AppState { svc });
    api.layer(DefaultBodyLimit::max(limit))
        .layer(axum::middleware::from_fn_with_state(
            deadline,
            limits::deadline,
        ))
        .layer(axum::middleware::from_fn_with_state(
            limits::KeyLimits::new(per_key),
            limits::limit,
        ))
        .layer(axum::middleware::from_fn(observability::track))
        .layer(
            TraceLayer::new_for_http()
                .make_span_with(observability::request_span)
                .on_response(observability::record_status),
        )
        .layer(PropagateRequestIdLayer::x_request_id())
        .layer(SetRequestIdLayer::x_request_id(MakeRequestUuid))
}

/// Stores as Sources the session chunks claimed before this process started and not
/// posted (see `cosmo_pipeline::sessions`); the reconciler would, later.
async fn post_unposted_chunks(svc: Services) {
    let started = svc.clock.now();
    let batch = svc.config.reconciler.batch_size;
    match cosmo_pipeline::sessions::post_unposted(&svc.sessions, (&svc).into(), started, batch)
        .await
    {
        Ok(0) => {}
        Ok(n) => tracing::info!(chunks = n, "posted session chunks left unposted"),
        Err(e) => {
            tracing::warn!(error = %format!("{e:#}"), "posting unposted session chunks failed")
        }
    }
}

/// Serves the API on `listener` until `shutdown` resolves, then lets in-flight requests
/// finish (each connection closes after its current answer).
///
/// The accept loop is Cosmo's own, not `axum::serve`, for one setting that needs it:
/// hyper's header-read timeout (it works only with a timer installed), so a client that
/// never finishes a request head, or idles between requests, loses its connection after
/// `server.header_read_timeout_secs`. Slow bodies are bounded where they are read.
pub async fn serve(
    svc: Services,
    listener: tokio::net::TcpListener,
    shutdown: impl std::future::Future<Output = ()> + Send + 'static,
) -> anyhow::Result<()> {
    // Boxed here, so the serving code below is compiled once, in this crate, rather than
    // in each binary that calls this with its own kind of signal.
    serve_until(svc, listener, Box::pin(shutdown)).await
}

async fn serve_until(
    svc: Services,
    listener: tokio::net::TcpListener,
    mut shutdown: std::pin::Pin<Box<dyn std::future::Future<Output = ()> + Send>>,
) -> anyhow::Result<()> {
    use hyper_util::rt::{TokioIo, TokioTimer};
    use hyper_util::service::TowerToHyperService;

    let header_timeout =
        std::time::Duration::from_secs(svc.config.server.header_read_timeout_secs.max(1));
    // Session chunks a stopped process claimed but did not store as Sources.
    tokio::spawn(post_unposted_chunks(svc.clone()));
    let app = router(svc);
    let (stop, stopping) = tokio::sync::watch::channel(false);
    let mut connections = tokio::task::JoinSet::new();
    loop {
        let stream = tokio::select! {
            accepted = listener.accept() => match accepted {
                Ok((stream, _)) => stream,
                // Out of file descriptors and the like: wait rather than spin.
                Err(e) => {
                    tracing::warn!(error = %e, "accepting a connection failed");
                    tokio::time::sleep(std::time::Duration::from_millis(100)).await;
                    continue;
                }
            },
            () = &mut shutdown => break,
        };
        let _ = stream.set_nodelay(true);
        let service = TowerToHyperService::new(app.clone());
        let mut stopping = stopping.clone();
        connections.spawn(async move {
            let mut http = hyper::server::conn::http1::Builder::new();
            http.timer(TokioTimer::new())
                .header_read_timeout(header_timeout);
            let connection = http.serve_connection(TokioIo::new(stream), service);
            let mut connection = std::pin::pin!(connection);
            tokio::select! {
                _ = connection.as_mut() => {}
                // (Connections are only accepted before the stop is sent.)
                _ = stopping.changed() => {
                    connection.as_mut().graceful_shutdown();
                    let _ = connection.await;
                }
            }
        });
        // Finished connections' tasks are collected as new ones come.
        while connections.try_join_next().is_some() {}
    }
    drop(listener);
    let _ = stop.send(true);
    while connections.join_next().await.is_some() {}
    Ok(())
}
