//! Facts: remember, correct, confirm, explain, list, weak facts, and erase. A structured
//! fact keeps one live value per (user, category, key); a less confident value never
//! overwrites a more confident one. Remember, correct, confirm and list are [`ops`],
//! shared with the MCP tools.

use axum::Json;
use axum::extract::{Query, State};
use axum::http::StatusCode;
use cosmo_shared::domain::input::fact::{CorrectionBody, RememberFactBody};
use cosmo_shared::domain::input::read::limit;
use cosmo_shared::domain::input::{FieldError, parse_user_id};
use cosmo_shared::domain::{Erasure, Fact, FactExplanation, FactWrite, MemoryKind, Weakness};
use serde::{Deserialize, Serialize};
use utoipa::{IntoParams, ToSchema};

use super::access::{memory_owner, tenant_user};
use crate::AppState;
use crate::error::{ApiError, ApiResult, ErrorBody};
use crate::extract::{JsonBody, Path, Tenant};
use crate::ops::{self, FactList, FactListParams};

/// Remember a fact
///
/// Free text, or a structured slot (`category`, `key`, `value`) that keeps one live
/// value per user: a new value replaces a less or equally confident one, and a less
/// confident value is not stored. `outcome` says what happened.
#[utoipa::path(post, path = "/api/facts", tag = "facts", request_body = RememberFactBody,
    responses(
        (status = 201, description = "Stored (`outcome: stored`)", body = FactWrite),
        (status = 200, description = "Not stored: the same fact exists (`unchanged`) or a more \
            confident value is kept (`kept_existing`)", body = FactWrite),
        (status = 404, description = "`user_id` is not a user of the caller's tenant, or \
            `about`/`source_keys` name something that is not the user's", body = ErrorBody),
        (status = 422, description = "A field is invalid", body = ErrorBody),
        (status = 503, description = "The embedding model is unavailable", body = ErrorBody),
    ))]
pub async fn remember(
    State(app): State<AppState>,
    tenant: Tenant,
    JsonBody(body): JsonBody,
) -> ApiResult<(StatusCode, Json<FactWrite>)> {
    let write = ops::remember_fact(&app, &tenant, body).await?;
    let status = match write {
        FactWrite::Stored { .. } => StatusCode::CREATED,
        _ => StatusCode::OK,
    };
    Ok((status, Json(write)))
}

/// Correct a fact
///
/// The new fact supersedes fact `id`, which ends (`valid_to`) and stays explainable.
#[utoipa::path(post, path = "/api/facts/{id}/corrections", tag = "facts",
    request_body = CorrectionBody,
    params(("id" = String, Path, description = "The fact to correct")),
    responses(
        (status = 201, description = "The new fact", body = Fact),
        (status = 404, description = "No such fact for the caller's tenant, or \
            `about`/`source_keys` name something that is not the user's", body = ErrorBody),
        (status = 409, description = "The fact is no longer live; it is structured and the \
            correction does not keep its slot (`field` says which); or the slot it moves into \
            holds another live fact", body = ErrorBody),
        (status = 422, description = "A field is invalid", body = ErrorBody),
        (status = 503, description = "The embedding model is unavailable", body = ErrorBody),
    ))]
pub async fn correct(
    State(app): State<AppState>,
    tenant: Tenant,
    Path(id): Path<String>,
    JsonBody(body): JsonBody,
) -> ApiResult<(StatusCode, Json<Fact>)> {
    let corrected = ops::correct_fact(&app, &tenant, &id, body).await?;
    Ok((StatusCode::CREATED, Json(corrected)))
}

/// Confirm a fact
///
/// Confidence 1, protected from decay. A body, if any, is ignored.
#[utoipa::path(post, path = "/api/facts/{id}/confirm", tag = "facts",
    params(("id" = String, Path, description = "The fact to confirm")),
    responses(
        (status = 200, description = "The confirmed fact", body = Fact),
        (status = 404, description = "No such fact for the caller's tenant", body = ErrorBody),
        (status = 409, description = "The fact is no longer live", body = ErrorBody),
    ))]
pub async fn confirm(
    State(app): State<AppState>,
    tenant: Tenant,
    Path(id): Path<String>,
) -> ApiResult<Json<Fact>> {
    ops::confirm_fact(&app, &tenant, &id).await.map(Json)
}

/// One fact
#[utoipa::path(get, path = "/api/facts/{id}", tag = "facts",
    params(("id" = String, Path, description = "The fact's id")),
    responses(
        (status = 200, description = "The fact", body = Fact),
        (status = 404, description = "No such fact for the caller's tenant", body = ErrorBody),
    ))]
pub async fn get(
    State(app): State<AppState>,
    tenant: Tenant,
    Path(id): Path<String>,
) -> ApiResult<Json<Fact>> {
    memory_owner(&app, &tenant, MemoryKind::Fact, &id).await?;
    app.svc
        .graph
        .fact(&id)
        .await?
        .map(Json)
        .ok_or_else(|| ApiError::NotFound(format!("fact {id} not found")))
}

/// Explain a fact
///
/// Its Sources, the chain of facts it replaced (newest first), what replaced it, and the
/// entities it is about.
#[utoipa::path(get, path = "/api/facts/{id}/explain", tag = "facts",
    params(("id" = String, Path, description = "The fact's id")),
    responses(
        (status = 200, description = "Where the fact came from", body = FactExplanation),
        (status = 404, description = "No such fact for the caller's tenant", body = ErrorBody),
    ))]
pub async fn explain(
    State(app): State<AppState>,
    tenant: Tenant,
    Path(id): Path<String>,
) -> ApiResult<Json<FactExplanation>> {
    memory_owner(&app, &tenant, MemoryKind::Fact, &id).await?;
    app.svc
        .graph
        .explain_fact(&id)
        .await?
        .map(Json)
        .ok_or_else(|| ApiError::NotFound(format!("fact {id} not found")))
}

/// Erase a fact
///
/// The fact and the facts it superseded, gone for good.
#[utoipa::path(delete, path = "/api/facts/{id}", tag = "facts",
    params(("id" = String, Path, description = "The fact's id")),
    responses(
        (status = 200, description = "What was erased", body = Erasure),
        (status = 404, description = "No such fact for the caller's tenant", body = ErrorBody),
    ))]
pub async fn erase(
    State(app): State<AppState>,
    tenant: Tenant,
    Path(id): Path<String>,
) -> ApiResult<Json<Erasure>> {
    memory_owner(&app, &tenant, MemoryKind::Fact, &id).await?;
    app.svc
        .graph
        .erase_fact(&id)
        .await?
        .map(Json)
        .ok_or_else(|| ApiError::NotFound(format!("fact {id} not found")))
}

/// A user's facts
///
/// Newest first; live ones only unless `include_inactive`.
#[utoipa::path(get, path = "/api/facts", tag = "facts", params(FactListParams),
    responses(
        (status = 200, description = "The facts", body = FactList),
        (status = 404, description = "`user_id` is not a user of the caller's tenant", body = ErrorBody),
        (status = 422, description = "A query parameter is invalid", body = ErrorBody),
    ))]
pub async fn list(
    State(app): State<AppState>,
    tenant: Tenant,
    params: Result<Query<FactListParams>, axum::extract::rejection::QueryRejection>,
) -> ApiResult<Json<FactList>> {
    let Query(p) = params.map_err(query_error)?;
    ops::list_facts(&app, &tenant, p).await.map(Json)
}

#[derive(Debug, Deserialize, IntoParams)]
#[serde(deny_unknown_fields)]
#[into_params(parameter_in = Query)]
pub struct WeakParams {
    /// A user of the caller's tenant.
    #[param(
        min_length = 1,
        max_length = 128,
        pattern = r"^(?!\.\.?$)[A-Za-z0-9._@:-]+$"
    )]
    user_id: String,
    /// Facts with a salience below this (0 to 1, default 0.2)…
    #[param(minimum = 0.0, maximum = 1.0)]
    salience_below: Option<f64>,
    /// …or a confidence below this (0 to 1, default 0.5).
    #[param(minimum = 0.0, maximum = 1.0)]
    confidence_below: Option<f64>,
    /// At most this many (1 to 100, default 50).
    #[param(minimum = 1, maximum = 100)]
    limit: Option<usize>,
}

/// Weak facts and the bars they are below.
#[derive(Debug, Serialize, ToSchema)]
pub struct WeakFacts {
    pub weakness: Weakness,
    pub facts: Vec<Fact>,
}

/// A user's weak facts
///
/// Live, unconfirmed facts with low salience or confidence, weakest first: confirm them
/// or let them fade.
#[utoipa::path(get, path = "/api/facts/weak", tag = "facts", params(WeakParams),
    responses(
        (status = 200, description = "The weak facts", body = WeakFacts),
        (status = 404, description = "`user_id` is not a user of the caller's tenant", body = ErrorBody),
        (status = 422, description = "A query parameter is invalid", body = ErrorBody),
    ))]
pub async fn weak(
    State(app): State<AppState>,
    tenant: Tenant,
    params: Result<Query<WeakParams>, axum::extract::rejection::QueryRejection>,
) -> ApiResult<Json<WeakFacts>> {
    let Query(p) = params.map_err(query_error)?;
    let user_id = parse_user_id("user_id", &p.user_id)?;
    let user_id = tenant_user(&app, &tenant, &user_id).await?;
    let d = Weakness::default();
    let bar = |field: &str, v: Option<f64>, default: f64| match v {
        None => Ok(default),
        Some(v) if (0.0..=1.0).contains(&v) => Ok(v),
        Some(_) => Err(FieldError::new(field, "must be a number from 0 to 1")),
    };
    let weakness = Weakness {
        salience_below: bar("salience_below", p.salience_below, d.salience_below)?,
        confidence_below: bar("confidence_below", p.confidence_below, d.confidence_below)?,
    };
    let facts = app
        .svc
        .graph
        .weak_facts(&user_id, weakness, limit("limit", p.limit, 50)?)
        .await?;
    Ok(Json(WeakFacts { weakness, facts }))
}

pub fn query_error(e: axum::extract::rejection::QueryRejection) -> ApiError {
    ApiError::Validation(FieldError::new("query", e.body_text()))
}
