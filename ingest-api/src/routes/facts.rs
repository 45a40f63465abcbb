//! Facts: remember, correct, confirm, explain, list, weak facts, and erase. A structured
//! fact keeps one live value per (user, category, key); a less confident value never
//! overwrites a more confident one. Remember, correct, confirm, explain, list and weak
//! facts are [`ops`], shared with the MCP tools.

use axum::Json;
use axum::extract::{Query, State};
use axum::http::StatusCode;
use cosmo_shared::domain::input::FieldError;
use cosmo_shared::domain::input::fact::{CorrectionBody, RememberFactBody};
use cosmo_shared::domain::{Erasure, Fact, FactExplanation, FactWrite, MemoryKind};

use super::access::memory_owner;
use crate::AppState;
use crate::error::{ApiError, ApiResult, ErrorBody};
use crate::extract::{JsonBody, Path, Tenant};
use crate::ops::{self, FactList, FactListParams, WeakFacts, WeakParams};

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
    ops::explain_fact(&app, &tenant, &id).await.map(Json)
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
    ops::weak_facts(&app, &tenant, p).await.map(Json)
}

pub fn query_error(e: axum::extract::rejection::QueryRejection) -> ApiError {
    ApiError::Validation(FieldError::new("query", e.body_text()))
}
