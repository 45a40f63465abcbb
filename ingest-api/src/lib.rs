//! # cosmo-ingest-api
//!
//! The thin HTTP API (axum): validates input, writes raw Sources, enqueues jobs, serves
//! reads and user profiles. [`router`] builds the whole app for a [`Services`], so tests
//! can call it without a socket; [`serve`] runs it until shutdown.
//!
//! * [`routes`] — one module per resource.
//! * [`extract`] — tenant (API key), request id and JSON body extractors.
//! * [`error`] — the error → status → JSON mapping.
//! * [`bootstrap`] — the first API key.

use axum::Router;
use axum::extract::DefaultBodyLimit;
use axum::routing::{get, post};
use cosmo_shared::services::Services;
use tower_http::request_id::{MakeRequestUuid, PropagateRequestIdLayer, SetRequestIdLayer};
use tower_http::trace::TraceLayer;

pub mod bootstrap;
pub mod error;
pub mod extract;
pub mod routes;

/// Shared by every handler.
#[derive(Debug, Clone)]
pub struct AppState {
    pub svc: Services,
}

pub fn router(svc: Services) -> Router {
    let limit = svc.config.server.body_limit_bytes;
    let api = Router::new()
        .route("/api/sources", post(routes::sources::create))
        .route(
            "/api/sources/{key}",
            get(routes::sources::get).delete(routes::sources::erase),
        )
        .route(
            "/api/sources/{key}/extractions",
            post(routes::sources::request_extraction),
        )
        .route(
            "/api/users/{user_id}",
            get(routes::users::get)
                .put(routes::users::put)
                .delete(routes::users::erase),
        )
        .route("/api/explore", post(routes::explore::explore))
        .route("/api/context", post(routes::explore::context))
        .route("/api/storylines/{id}", get(routes::explore::storyline))
        .route("/api/macros/{id}", get(routes::explore::macro_))
        .route("/api/entities/{key}", get(routes::entities::get))
        .route(
            "/api/facts",
            get(routes::facts::list).post(routes::facts::remember),
        )
        .route("/api/facts/weak", get(routes::facts::weak))
        .route(
            "/api/facts/{id}",
            get(routes::facts::get).delete(routes::facts::erase),
        )
        .route("/api/facts/{id}/corrections", post(routes::facts::correct))
        .route("/api/facts/{id}/confirm", post(routes::facts::confirm))
        .route("/api/facts/{id}/explain", get(routes::facts::explain))
        .route("/api/memories/{kind}/{key}", get(routes::memories::get))
        .route(
            "/api/memories/{kind}/{key}/events",
            get(routes::memories::events),
        )
        .route(
            "/api/memories/{kind}/{key}/{action}",
            post(routes::memories::act),
        )
        .route("/api/admin/usage", get(routes::admin::usage))
        .route("/api/admin/jobs/runs", get(routes::admin::job_runs))
        .route("/api/admin/jobs/{kind}/run", post(routes::admin::run_job))
        .route("/healthz", get(routes::health::healthz))
        .route("/readyz", get(routes::health::readyz))
        .fallback(|| async { error::ApiError::NotFound("no such endpoint".into()) })
        .with_state(AppState { svc });
    api.layer(DefaultBodyLimit::max(limit))
        .layer(
            TraceLayer::new_for_http().make_span_with(|req: &axum::http::Request<_>| {
                let request_id = req.headers().get("x-request-id").and_then(|v| v.to_str().ok()).unwrap_or("-");
                tracing::info_span!("request", method = %req.method(), path = %req.uri().path(), request_id)
            }),
        )
        .layer(PropagateRequestIdLayer::x_request_id())
        .layer(SetRequestIdLayer::x_request_id(MakeRequestUuid))
}

/// Serves the API on `listener` until `shutdown` resolves, then lets in-flight requests
/// finish.
pub async fn serve(
    svc: Services,
    listener: tokio::net::TcpListener,
    shutdown: impl std::future::Future<Output = ()> + Send + 'static,
) -> anyhow::Result<()> {
    let app = router(svc);
    axum::serve(listener, app)
        .with_graceful_shutdown(shutdown)
        .await?;
    Ok(())
}
