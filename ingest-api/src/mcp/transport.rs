//! The two transports: streamable HTTP at `POST /mcp` ([`http`]) and stdin/stdout
//! ([`serve_stdio`]).

use std::sync::Arc;

use axum::extract::{Request, State};
use axum::response::{IntoResponse, Response};
use cosmo_shared::services::Services;
use rmcp::ServiceExt;
use rmcp::transport::streamable_http_server::session::never::NeverSessionManager;
use rmcp::transport::streamable_http_server::{StreamableHttpServerConfig, StreamableHttpService};
use tower::ServiceExt as _;

use super::CosmoMcp;
use crate::AppState;
use crate::error::ApiError;
use crate::extract::{RequestId, Tenant};

/// `POST /mcp`: MCP over streamable HTTP, for the tenant of the request's bearer key
/// (401 without a valid one, as on every `/api` endpoint). Stateless and JSON-only: each
/// request is answered on its own.
pub async fn http(
    State(app): State<AppState>,
    tenant: Tenant,
    RequestId(request_id): RequestId,
    request: Request,
) -> Response {
    // The body is read and checked here, so a late, oversized, mistyped or malformed one
    // gets the API's JSON error (408, 413, 415, 400) like every other endpoint.
    let request = match checked_json(request, &app).await {
        Ok(request) => request,
        Err(e) => return e.into_response(),
    };
    let config = StreamableHttpServerConfig::default()
        .with_legacy_session_mode(false)
        .with_json_response(true)
        // The bearer key is what guards this endpoint, as it guards REST; the API's
        // host names are the operator's to choose.
        .disable_allowed_hosts()
        .with_max_request_body_bytes(app.svc.config.server.body_limit_bytes);
    let service = StreamableHttpService::new(
        move || {
            Ok(CosmoMcp::new(
                app.clone(),
                tenant.clone(),
                request_id.clone(),
            ))
        },
        Arc::new(NeverSessionManager::default()),
        config,
    );
    match service.oneshot(request).await {
        Ok(response) => response.map(axum::body::Body::new),
        Err(never) => match never {},
    }
    .into_response()
}

/// The request again, once its body has arrived in time, within the size limit, as
/// `application/json`, and parses as JSON.
async fn checked_json(request: Request, app: &AppState) -> Result<Request, ApiError> {
    let json = request
        .headers()
        .get(axum::http::header::CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.split(';').next())
        .is_some_and(|v| v.trim().eq_ignore_ascii_case("application/json"));
    if !json {
        return Err(ApiError::UnsupportedMediaType(
            "MCP requests are JSON: send `Content-Type: application/json`".into(),
        ));
    }
    let (parts, body) = request.into_parts();
    let bytes = crate::extract::body_bytes(Request::from_parts(parts.clone(), body), app).await?;
    crate::extract::parse_json(&bytes)?;
    Ok(Request::from_parts(parts, axum::body::Body::from(bytes)))
}

/// `cosmo mcp`: MCP on stdin/stdout for the tenant of `api_key`, until the client
/// closes stdin. Nothing but the protocol goes to stdout.
pub async fn serve_stdio(svc: Services, api_key: &str) -> anyhow::Result<()> {
    let app = AppState { svc };
    let tenant = Tenant::from_key(&app, api_key, cosmo_shared::directory::Use::Verified)
        .await
        .map_err(|e| anyhow::anyhow!("the API key is refused: {e}"))?;
    tracing::info!(tenant = %tenant.id, "serving MCP on stdio");
    let server = CosmoMcp::new(app, tenant, None)
        .serve(rmcp::transport::stdio())
        .await?;
    server.waiting().await?;
    Ok(())
}
