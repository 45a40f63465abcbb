//! Request extractors: the caller's tenant from its API key, the request id, path
//! parameters, and a JSON body that maps each way of being wrong to its own status
//! (413, 400), always in Cosmo's JSON error shape.

use axum::body::Bytes;
use axum::extract::{FromRef, FromRequest, FromRequestParts, Request};
use axum::http::Method;
use axum::http::request::Parts;
use cosmo_shared::directory::Use;
use serde_json::Value;

use crate::AppState;
use crate::error::ApiError;

/// The tenant the presented API key belongs to, and whether the key is an admin key.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Tenant {
    pub id: String,
    pub is_admin: bool,
    /// How this request's directory lookups (its key, its users) may be answered: a
    /// read may use ones verified earlier while the directory is out of reach.
    pub lookups: Use,
}

/// Whether a request only reads: `GET`, and the two queries sent as `POST` (explore and
/// context). Everything else, MCP included, may write.
pub fn reads_only(method: &Method, path: &str) -> bool {
    *method == Method::GET || matches!(path, "/api/explore" | "/api/context")
}

impl Tenant {
    /// The tenant of an `Authorization` header's bearer key: 401 when the header is
    /// missing, not `Bearer <key>`, or the key is unknown or revoked.
    pub async fn from_authorization(
        app: &AppState,
        header: Option<&str>,
        lookups: Use,
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
        Self::from_key(app, key, lookups).await
    }

    /// The tenant an API key belongs to (401 when unknown or revoked).
    pub async fn from_key(app: &AppState, key: &str, lookups: Use) -> Result<Self, ApiError> {
        match app.svc.directory.authenticate_recent(key, lookups).await? {
            Some(caller) => Ok(Tenant {
                id: caller.tenant_id,
                is_admin: caller.is_admin,
                lookups,
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
        let lookups = if reads_only(&parts.method, parts.uri.path()) {
            Use::ReadThroughOutage
        } else {
            Use::Verified
        };
        Self::from_authorization(&AppState::from_ref(state), header, lookups).await
    }
}

/// Path parameters, with axum's rejection in Cosmo's JSON error shape: a segment that
/// is not UTF-8 (`/api/sources/%ff`) names nothing there is (404).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Path<T>(pub T);

impl<S, T> FromRequestParts<S> for Path<T>
where
    T: serde::de::DeserializeOwned + Send,
    S: Send + Sync,
{
    type Rejection = ApiError;

    async fn from_request_parts(parts: &mut Parts, state: &S) -> Result<Self, ApiError> {
        use axum::extract::rejection::PathRejection;
        match axum::extract::Path::<T>::from_request_parts(parts, state).await {
            Ok(axum::extract::Path(value)) => Ok(Self(value)),
            Err(PathRejection::FailedToDeserializePathParams(e)) => Err(ApiError::NotFound(
                format!("nothing at this path: {}", e.body_text()),
            )),
            Err(other) => Err(ApiError::Internal(anyhow::anyhow!(
                "path parameters: {}",
                other.body_text()
            ))),
        }
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

impl OptionalJsonBody {
    /// The body as `T`: left out or `null` is `T::default()`; otherwise checked as every
    /// body is (422 naming the failing field).
    pub fn or_default<T: Default + serde::de::DeserializeOwned>(self) -> Result<T, ApiError> {
        match self.0 {
            None | Some(Value::Null) => Ok(T::default()),
            Some(v) => Ok(cosmo_shared::domain::input::from_value(v)?),
        }
    }
}

/// The raw body, with the size limit's rejection as Cosmo's JSON 413 and a body that
/// does not arrive in time as its 408.
pub(crate) async fn body_bytes<S>(req: Request, state: &S) -> Result<Bytes, ApiError>
where
    AppState: FromRef<S>,
    S: Send + Sync,
{
    let server = &AppState::from_ref(state).svc.config.server;
    let (limit, secs) = (server.body_limit_bytes, server.body_read_timeout_secs);
    // A client sending its body slowly holds a connection: bounded in time too.
    let read = Bytes::from_request(req, state);
    match tokio::time::timeout(std::time::Duration::from_secs(secs), read).await {
        Err(_) => Err(ApiError::RequestTimeout { secs }),
        Ok(read) => read.map_err(|rejection| {
            if rejection.status() == axum::http::StatusCode::PAYLOAD_TOO_LARGE {
                ApiError::PayloadTooLarge { limit }
            } else {
                ApiError::MalformedJson(format!("could not read the request body: {rejection}"))
            }
        }),
    }
}

/// Bodies larger than this are parsed on the blocking pool: a large body never holds a
/// runtime thread other requests are waiting for.
const PARSE_INLINE_MAX: usize = 16 * 1024;

/// Runs CPU-heavy work (parsing, hashing a large body) on the blocking pool.
pub(crate) async fn off_runtime<T: Send + 'static>(
    work: impl FnOnce() -> T + Send + 'static,
) -> Result<T, ApiError> {
    tokio::task::spawn_blocking(work)
        .await
        .map_err(|e| ApiError::Internal(anyhow::Error::new(e).context("a blocking task failed")))
}

/// [`parse_json`], off the runtime threads for a large body.
async fn parse_json_body(bytes: Bytes) -> Result<Value, ApiError> {
    if bytes.len() <= PARSE_INLINE_MAX {
        return parse_json(&bytes);
    }
    off_runtime(move || parse_json(&bytes)).await?
}

/// The body as JSON; an object that names a key twice is refused (parsers disagree on
/// which value wins, so the request is ambiguous).
pub(crate) fn parse_json(bytes: &[u8]) -> Result<Value, ApiError> {
    let malformed = |e: serde_json::Error| {
        ApiError::MalformedJson(format!("the request body is not valid JSON: {e}"))
    };
    let mut reader = serde_json::Deserializer::from_slice(bytes);
    let Unique(value) = serde::Deserialize::deserialize(&mut reader).map_err(malformed)?;
    reader.end().map_err(malformed)?;
    Ok(value)
}

/// A JSON value read like `serde_json::Value`, except that an object may not name a key
/// twice.
struct Unique(Value);

impl<'de> serde::Deserialize<'de> for Unique {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        d.deserialize_any(UniqueVisitor).map(Unique)
    }
}

struct UniqueVisitor;

impl<'de> serde::de::Visitor<'de> for UniqueVisitor {
    type Value = Value;

    fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("a JSON value")
    }

    fn visit_bool<E>(self, v: bool) -> Result<Value, E> {
        Ok(Value::Bool(v))
    }

    fn visit_i64<E>(self, v: i64) -> Result<Value, E> {
        Ok(Value::from(v))
    }

    fn visit_u64<E>(self, v: u64) -> Result<Value, E> {
        Ok(Value::from(v))
    }

    fn visit_f64<E: serde::de::Error>(self, v: f64) -> Result<Value, E> {
        serde_json::Number::from_f64(v)
            .map(Value::Number)
            .ok_or_else(|| E::custom("a number out of range"))
    }

    fn visit_str<E>(self, v: &str) -> Result<Value, E> {
        Ok(Value::String(v.to_owned()))
    }

    fn visit_string<E>(self, v: String) -> Result<Value, E> {
        Ok(Value::String(v))
    }

    fn visit_unit<E>(self) -> Result<Value, E> {
        Ok(Value::Null)
    }

    fn visit_seq<A: serde::de::SeqAccess<'de>>(self, mut seq: A) -> Result<Value, A::Error> {
        let mut items = Vec::new();
        while let Some(Unique(item)) = seq.next_element()? {
            items.push(item);
        }
        Ok(Value::Array(items))
    }

    fn visit_map<A: serde::de::MapAccess<'de>>(self, mut map: A) -> Result<Value, A::Error> {
        let mut object = serde_json::Map::new();
        while let Some(key) = map.next_key::<String>()? {
            if object.contains_key(&key) {
                return Err(serde::de::Error::custom(format!(
                    "the key `{key}` appears twice in one object"
                )));
            }
            let Unique(value) = map.next_value()?;
            object.insert(key, value);
        }
        Ok(Value::Object(object))
    }
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
        parse_json_body(bytes).await.map(JsonBody)
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
        parse_json_body(bytes).await.map(|v| Self(Some(v)))
    }
}
