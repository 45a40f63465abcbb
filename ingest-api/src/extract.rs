//! Request extractors: the caller's tenant from its API key, the request id, and a JSON
//! body that maps each way of being wrong to its own status (413, 400).

use axum::body::Bytes;
use axum::extract::{FromRef, FromRequest, FromRequestParts, Request};
use axum::http::request::Parts;
use serde_json::Value;

use crate::AppState;
use crate::error::ApiError;

/// The tenant the presented API key belongs to, and whether the key is an admin key.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Tenant {
    pub id: String,
    pub is_admin: bool,
}

impl Tenant {
    /// The tenant of an `Authorization` header's bearer key: 401 when the header is
    /// missing, not `Bearer <key>`, or the key is unknown or revoked.
    pub async fn from_authorization(
        app: &AppState,
        header: Option<&str>,
    ) -> Result<Self, ApiError> {
        let header = header.ok_or_else(|| {
            ApiError::Unauthorized("missing API key: send `Authorization: Bearer <key>`".into())
        })?;
        let key = header
            .strip_prefix("Bearer ")
            .or_else(|| header.strip_prefix("bearer "))
            .map(str::trim)
            .filter(|k| !k.is_empty())
            .ok_or_else(|| {
                ApiError::Unauthorized("the Authorization header must be `Bearer <key>`".into())
            })?;
        Self::from_key(app, key).await
    }

    /// The tenant an API key belongs to (401 when unknown or revoked).
    pub async fn from_key(app: &AppState, key: &str) -> Result<Self, ApiError> {
        match app.svc.directory.authenticate(key).await? {
            Some(caller) => Ok(Tenant {
                id: caller.tenant_id,
                is_admin: caller.is_admin,
            }),
            None => Err(ApiError::Unauthorized("unknown or revoked API key".into())),
        }
    }
}

impl<S> FromRequestParts<S> for Tenant
where
    AppState: FromRef<S>,
    S: Send + Sync,
{
    type Rejection = ApiError;

    async fn from_request_parts(parts: &mut Parts, state: &S) -> Result<Self, ApiError> {
        let header = parts
            .headers
            .get(axum::http::header::AUTHORIZATION)
            .and_then(|v| v.to_str().ok());
        Self::from_authorization(&AppState::from_ref(state), header).await
    }
}

/// The request id set by the request-id layer (`x-request-id`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RequestId(pub Option<String>);

impl<S: Send + Sync> FromRequestParts<S> for RequestId {
    type Rejection = std::convert::Infallible;

    async fn from_request_parts(parts: &mut Parts, _: &S) -> Result<Self, Self::Rejection> {
        Ok(Self(
            parts
                .headers
                .get("x-request-id")
                .and_then(|v| v.to_str().ok())
                .map(str::to_owned),
        ))
    }
}

/// A JSON body: over the size limit → 413, not JSON → 400. What it contains is checked
/// by the domain parsers (→ 422).
#[derive(Debug, Clone, PartialEq)]
pub struct JsonBody(pub Value);

/// A JSON body that may be left out (empty or whitespace only → `None`); otherwise as
/// [`JsonBody`].
#[derive(Debug, Clone, PartialEq)]
pub struct OptionalJsonBody(pub Option<Value>);

/// The raw body, with the size limit's rejection as Cosmo's JSON 413.
async fn body_bytes<S>(req: Request, state: &S) -> Result<Bytes, ApiError>
where
    AppState: FromRef<S>,
    S: Send + Sync,
{
    let limit = AppState::from_ref(state).svc.config.server.body_limit_bytes;
    Bytes::from_request(req, state).await.map_err(|rejection| {
        if rejection.status() == axum::http::StatusCode::PAYLOAD_TOO_LARGE {
            ApiError::PayloadTooLarge { limit }
        } else {
            ApiError::MalformedJson(format!("could not read the request body: {rejection}"))
        }
    })
}

fn parse_json(bytes: &[u8]) -> Result<Value, ApiError> {
    serde_json::from_slice(bytes)
        .map_err(|e| ApiError::MalformedJson(format!("the request body is not valid JSON: {e}")))
}

impl<S> FromRequest<S> for JsonBody
where
    AppState: FromRef<S>,
    S: Send + Sync,
{
    type Rejection = ApiError;

    async fn from_request(req: Request, state: &S) -> Result<Self, ApiError> {
        let bytes = body_bytes(req, state).await?;
        if bytes.is_empty() {
            return Err(ApiError::MalformedJson(
                "the request body is empty; expected a JSON object".into(),
            ));
        }
        parse_json(&bytes).map(JsonBody)
    }
}

impl<S> FromRequest<S> for OptionalJsonBody
where
    AppState: FromRef<S>,
    S: Send + Sync,
{
    type Rejection = ApiError;

    async fn from_request(req: Request, state: &S) -> Result<Self, ApiError> {
        let bytes = body_bytes(req, state).await?;
        if bytes.iter().all(u8::is_ascii_whitespace) {
            return Ok(Self(None));
        }
        parse_json(&bytes).map(|v| Self(Some(v)))
    }
}
