//! One error type for every handler, one table from error to status, one JSON shape:
//! `{"error": {"code", "message", "field"?}}`; docs/api.md, "Errors", lists the codes and
//! their statuses. Server-side failures say little to the client and everything to the
//! log. [`ErrorBody`] is that shape for the OpenAPI document.

use axum::Json;
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use cosmo_shared::domain::input::FieldError;
use cosmo_shared::telemetry::repeats;
use serde::Serialize;
use serde_json::json;
use utoipa::ToSchema;

#[derive(Debug, thiserror::Error)]
pub enum ApiError {
    #[error("{0}")]
    MalformedJson(String),
    #[error("{0}")]
    Validation(FieldError),
    #[error("request body is larger than the limit of {limit} bytes")]
    PayloadTooLarge { limit: usize },
    #[error("the request body did not arrive within {secs} s")]
    RequestTimeout { secs: u64 },
    #[error("{0}")]
    UnsupportedMediaType(String),
    #[error("{0}")]
    TooManyRequests(String),
    #[error("{0}")]
    Unauthorized(String),
    #[error("{0}")]
    Forbidden(String),
    #[error("{0}")]
    NotFound(String),
    /// The path exists, the method does not (the `allow` header lists those that do).
    #[error("{0}")]
    MethodNotAllowed(String),
    #[error("{0}")]
    Conflict(String),
    /// A well-formed field that names something the caller cannot reach (a fact about
    /// another user's entity): 404, naming the field.
    #[error("{0}")]
    FieldNotFound(FieldError),
    /// A well-formed field that conflicts with the state of what it changes (e.g. a
    /// correction that leaves a structured fact's slot): 409, naming the field.
    #[error("{0}")]
    FieldConflict(FieldError),
    /// The request was accepted in part (e.g. the Source is stored) but a dependency is
    /// down; `detail` tells the client what did happen.
    #[error("{message}")]
    Unavailable {
        message: String,
        detail: Option<serde_json::Value>,
    },
    #[error(transparent)]
    Internal(anyhow::Error),
}

/// A store out of reach is a 503 the client may retry; anything else unexpected is a
/// bug (500).
impl From<anyhow::Error> for ApiError {
    fn from(e: anyhow::Error) -> Self {
        if cosmo_shared::db::is_outage(&e) {
            let error = format!("{e:#}");
            if let Some(repeated) = repeats::admit("store out of reach", &error) {
                tracing::warn!(%error, repeated, "a store is out of reach");
            }
            Self::Unavailable {
                message: "a store Cosmo depends on is out of reach; retry later".into(),
                detail: None,
            }
        } else {
            Self::Internal(e)
        }
    }
}

impl ApiError {
    pub fn status(&self) -> StatusCode {
        match self {
            Self::MalformedJson(_) => StatusCode::BAD_REQUEST,
            Self::Validation(_) => StatusCode::UNPROCESSABLE_ENTITY,
            Self::PayloadTooLarge { .. } => StatusCode::PAYLOAD_TOO_LARGE,
            Self::RequestTimeout { .. } => StatusCode::REQUEST_TIMEOUT,
            Self::UnsupportedMediaType(_) => StatusCode::UNSUPPORTED_MEDIA_TYPE,
            Self::TooManyRequests(_) => StatusCode::TOO_MANY_REQUESTS,
            Self::Unauthorized(_) => StatusCode::UNAUTHORIZED,
            Self::Forbidden(_) => StatusCode::FORBIDDEN,
            Self::NotFound(_) | Self::FieldNotFound(_) => StatusCode::NOT_FOUND,
            Self::MethodNotAllowed(_) => StatusCode::METHOD_NOT_ALLOWED,
            Self::Conflict(_) | Self::FieldConflict(_) => StatusCode::CONFLICT,
            Self::Unavailable { .. } => StatusCode::SERVICE_UNAVAILABLE,
            Self::Internal(_) => StatusCode::INTERNAL_SERVER_ERROR,
        }
    }

    pub fn code(&self) -> &'static str {
        match self {
            Self::MalformedJson(_) => "invalid_json",
            Self::Validation(e) => e.code,
            Self::PayloadTooLarge { .. } => "payload_too_large",
            Self::RequestTimeout { .. } => "request_timeout",
            Self::UnsupportedMediaType(_) => "unsupported_media_type",
            Self::TooManyRequests(_) => "rate_limited",
            Self::Unauthorized(_) => "unauthorized",
            Self::Forbidden(_) => "forbidden",
            Self::NotFound(_) | Self::FieldNotFound(_) => "not_found",
            Self::MethodNotAllowed(_) => "method_not_allowed",
            Self::Conflict(_) | Self::FieldConflict(_) => "conflict",
            Self::Unavailable { .. } => "service_unavailable",
            Self::Internal(_) => "internal_error",
        }
    }
}

impl From<FieldError> for ApiError {
    fn from(e: FieldError) -> Self {
        Self::Validation(e)
    }
}

impl From<cosmo_shared::graph::GraphError> for ApiError {
    fn from(e: cosmo_shared::graph::GraphError) -> Self {
        match e {
            cosmo_shared::graph::GraphError::Conflict(m) => Self::Conflict(m),
            cosmo_shared::graph::GraphError::NotFound(m) => {
                Self::NotFound(format!("{m} not found"))
            }
            // The store's own error, not one wrapping it: its causes (a locked file, a
            // refused connection) decide between 503 and 500.
            cosmo_shared::graph::GraphError::Backend(e) => e.context("graph store").into(),
        }
    }
}

impl ApiError {
    /// The JSON body every error answer carries (REST and MCP alike). An internal error
    /// is logged here, and says little to the client.
    pub fn body(&self) -> serde_json::Value {
        let mut error = json!({ "code": self.code(), "message": self.to_string() });
        match self {
            Self::Validation(e) | Self::FieldNotFound(e) | Self::FieldConflict(e) => {
                error["field"] = json!(e.field);
            }
            Self::Unavailable {
                detail: Some(detail),
                ..
            } => error["detail"] = detail.clone(),
            Self::Internal(e) => {
                let chain = format!("{e:#}");
                if let Some(repeated) = repeats::admit("internal error", &chain) {
                    tracing::error!(error = %chain, repeated, "internal error");
                }
                error["message"] = json!("internal error; see the server log");
            }
            _ => {}
        }
        json!({ "error": error })
    }
}

/// What a 503 or 429 asks the client to wait before retrying (seconds).
pub const RETRY_AFTER_SECS: &str = "5";

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        let mut response = (self.status(), Json(self.body())).into_response();
        if matches!(self, Self::Unavailable { .. } | Self::TooManyRequests(_)) {
            response.headers_mut().insert(
                axum::http::header::RETRY_AFTER,
                axum::http::HeaderValue::from_static(RETRY_AFTER_SECS),
            );
        }
        if matches!(self, Self::RequestTimeout { .. }) {
            // The rest of a late body would be read as the next request: never reuse it.
            response.headers_mut().insert(
                axum::http::header::CONNECTION,
                axum::http::HeaderValue::from_static("close"),
            );
        }
        response
    }
}

/// What every error answer looks like (the OpenAPI document's `ErrorBody`).
#[derive(Debug, Serialize, ToSchema)]
#[schema(example = json!({"error": {"code": "validation_failed",
    "message": "queries[0].query: must not be empty", "field": "queries[0].query"}}))]
pub struct ErrorBody {
    pub error: ErrorDetail,
}

#[derive(Debug, Serialize, ToSchema)]
pub struct ErrorDetail {
    /// Machine-readable: `invalid_json`, `validation_failed` (or a more specific
    /// validation code such as `unknown_source_type`), `payload_too_large`,
    /// `unauthorized`, `forbidden`, `not_found`, `conflict`, `service_unavailable`,
    /// `internal_error`.
    pub code: String,
    /// For people; on a validation error, `<field>: <what is wrong>`.
    pub message: String,
    /// On validation errors (and a 404 or 409 caused by one field): the offending field,
    /// as a path (`raw_content.body`, `queries[0].query`; `query` for a query string,
    /// `body` for the body as a whole).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub field: Option<String>,
    /// On a 503 after a partial success: what did happen (e.g. the stored Source's
    /// `entity_key` and `status_url`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub detail: Option<serde_json::Value>,
}

pub type ApiResult<T> = Result<T, ApiError>;

#[cfg(test)]
mod tests {
    use super::*;
    use cosmo_shared::graph::GraphError;

    #[test]
    fn a_store_out_of_reach_is_a_503_and_anything_else_a_500() {
        let down = std::io::Error::new(std::io::ErrorKind::ConnectionRefused, "refused");
        let from_graph = ApiError::from(GraphError::Backend(down.into()));
        assert_eq!(from_graph.status(), StatusCode::SERVICE_UNAVAILABLE);
        let response = from_graph.into_response();
        assert_eq!(response.headers()["retry-after"], RETRY_AFTER_SECS);
        let bug = ApiError::from(GraphError::Backend(anyhow::anyhow!("a bug")));
        assert_eq!(bug.status(), StatusCode::INTERNAL_SERVER_ERROR);
        assert_eq!(
            ApiError::from(GraphError::NotFound("Source x".into())).status(),
            StatusCode::NOT_FOUND
        );
    }
}
