//! What the API tells its operator: `GET /metrics` (Prometheus text format, no API key:
//! it is for the operator's scraper, keep it off the public network), the per-request
//! metrics middleware, and the request span every handler log line sits in.

use std::time::{Duration, Instant};

use axum::extract::{MatchedPath, Request, State};
use axum::http::{HeaderValue, Response, header};
use axum::middleware::Next;
use axum::response::IntoResponse;
use cosmo_shared::{metrics, telemetry};
use tower_http::trace::{DefaultOnResponse, OnResponse};
use tracing::Span;

use crate::AppState;

/// Prometheus metrics
///
/// Every metric of this process in the Prometheus text format (with `cosmo serve`, the
/// workers' and the models' too), the queue depth read now. No API key: it is for the
/// operator's scraper. See `docs/observability.md`.
#[utoipa::path(get, path = "/metrics", tag = "health",
    responses((status = 200, description = "The text exposition format",
        content_type = "text/plain; version=0.0.4", body = String)))]
pub async fn render(State(app): State<AppState>) -> impl IntoResponse {
    let body = metrics::render(app.svc.queue.state_counts()).await;
    (
        [(
            header::CONTENT_TYPE,
            HeaderValue::from_static(metrics::CONTENT_TYPE),
        )],
        body,
    )
}

/// The route template a request matched (`/api/sources/{key}`), never its raw path:
/// one label value per route, however many keys are asked for.
fn route<B>(req: &axum::http::Request<B>) -> &str {
    req.extensions()
        .get::<MatchedPath>()
        .map_or(metrics::UNMATCHED_ROUTE, MatchedPath::as_str)
}

/// Middleware: counts each request and its latency by method, route and status.
pub async fn track(req: Request, next: Next) -> axum::response::Response {
    let method = req.method().clone();
    let route = route(&req).to_owned();
    let start = Instant::now();
    let response = next.run(req).await;
    metrics::http_request(
        method.as_str(),
        &route,
        response.status().as_u16(),
        start.elapsed(),
    );
    response
}

/// The span of one request: its method, path, route and request id (set by the
/// request-id layer, which runs first); the status is recorded when it is answered.
/// `otel.*` fields name and type the span in exported traces (only set when exporting).
pub fn request_span<B>(req: &axum::http::Request<B>) -> Span {
    let request_id = req
        .headers()
        .get("x-request-id")
        .and_then(|v| v.to_str().ok())
        .unwrap_or("-");
    let route = route(req);
    let span = tracing::info_span!(
        "request",
        method = %req.method(),
        path = %req.uri().path(),
        route,
        request_id,
        status = tracing::field::Empty,
        "otel.name" = tracing::field::Empty,
        "otel.kind" = tracing::field::Empty,
        "otel.status_code" = tracing::field::Empty,
    );
    telemetry::name_span(&span, || format!("{} {route}", req.method()), "server");
    span
}

/// Records the answer's status on the request span (5xx marks the span as an error).
/// tower-http's own (debug-level) response log line is kept.
pub fn record_status<B>(response: &Response<B>, latency: Duration, span: &Span) {
    let status = response.status();
    span.record("status", status.as_u16());
    if status.is_server_error() {
        span.record("otel.status_code", "ERROR");
    }
    DefaultOnResponse::default().on_response(response, latency, span);
}
