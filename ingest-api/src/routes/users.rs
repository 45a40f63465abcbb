//! `PUT /api/users/{user_id}` stores the profile and creates (or renames) the user's
//! owner Person from the full name; `GET` reads it back; `GET …/stats` counts the
//! user's memory; `POST …/extractions` asks for the user's extraction of their team
//! Sources in a batch; `DELETE` erases the user.

use axum::Json;
use axum::extract::State;
use axum::http::StatusCode;
use chrono::{DateTime, Utc};
use cosmo_shared::domain::input::{FieldError, ProfileInput, parse_user_id};
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use super::access::tenant_user;
use crate::AppState;
use crate::error::{ApiError, ApiResult, ErrorBody};
use crate::extract::{JsonBody, OptionalJsonBody, Path, RequestId, Tenant};

#[derive(Debug, Serialize, ToSchema)]
pub struct UserView {
    pub user_id: String,
    pub full_name: Option<String>,
    /// The entity key of the user's owner Person, once a profile exists.
    pub owner_entity_key: Option<String>,
    pub owner_canonical_name: Option<String>,
    pub created_at: DateTime<Utc>,
    pub updated_at: DateTime<Utc>,
}

/// Set a user's profile
///
/// Stores the profile and creates (or renames) the user's owner Person from the full
/// name. A new user id is claimed for the caller's tenant.
#[utoipa::path(put, path = "/api/users/{user_id}", tag = "users", request_body = ProfileInput,
    params(("user_id" = String, Path, description = "The user id (1 to 128 letters, digits \
        and `. _ - @ :`)", min_length = 1, max_length = 128, pattern = r"^(?!\.\.?$)[A-Za-z0-9._@:-]+$")),
    responses(
        (status = 200, description = "The profile", body = UserView),
        (status = 409, description = "Another of the user's nodes already has that name",
            body = ErrorBody),
        (status = 422, description = "A field or the user id is invalid", body = ErrorBody),
    ))]
pub async fn put(
    State(app): State<AppState>,
    tenant: Tenant,
    Path(user_id): Path<String>,
    JsonBody(body): JsonBody,
) -> ApiResult<Json<UserView>> {
    let user_id = parse_user_id("user_id", &user_id)?;
    let profile = ProfileInput::parse(body)?;
    let svc = &app.svc;
    let now = svc.clock.now();
    let graph_user_id = svc.directory.claim_user(&tenant.id, &user_id, now).await?;
    // The graph first: a name clash (409) must leave the stored profile unchanged.
    svc.graph
        .upsert_owner(&graph_user_id, &profile.full_name, now)
        .await?;
    svc.directory
        .set_profile(&graph_user_id, &profile.full_name, now)
        .await?;
    view(&app, &tenant, &user_id).await.map(Json)
}

/// A user's profile
#[utoipa::path(get, path = "/api/users/{user_id}", tag = "users",
    params(("user_id" = String, Path, description = "The user id", min_length = 1,
        max_length = 128, pattern = r"^(?!\.\.?$)[A-Za-z0-9._@:-]+$")),
    responses(
        (status = 200, description = "The profile", body = UserView),
        (status = 404, description = "Not a user of the caller's tenant", body = ErrorBody),
        (status = 422, description = "The user id is invalid", body = ErrorBody),
    ))]
pub async fn get(
    State(app): State<AppState>,
    tenant: Tenant,
    Path(user_id): Path<String>,
) -> ApiResult<Json<UserView>> {
    let user_id = parse_user_id("user_id", &user_id)?;
    view(&app, &tenant, &user_id).await.map(Json)
}

/// A user's memory in numbers
///
/// How many memories of each kind (Sources, Persons, Concepts, Entities,
/// relationships, Storylines, Macros, facts) are in each lifecycle state, Sources by
/// processing status, links by type, orphan nodes, the user's extractions by status,
/// the text and vectors they store, and the last run of each maintenance job. Every
/// kind, state and status is present, 0 when there is none. Reading it recalls
/// nothing.
#[utoipa::path(get, path = "/api/users/{user_id}/stats", tag = "users",
    params(("user_id" = String, Path, description = "The user id", min_length = 1,
        max_length = 128, pattern = r"^(?!\.\.?$)[A-Za-z0-9._@:-]+$")),
    responses(
        (status = 200, description = "The user's memory in numbers",
            body = cosmo_pipeline::stats::UserStats),
        (status = 404, description = "Not a user of the caller's tenant", body = ErrorBody),
        (status = 422, description = "The user id is invalid", body = ErrorBody),
    ))]
pub async fn stats(
    State(app): State<AppState>,
    tenant: Tenant,
    Path(user_id): Path<String>,
) -> ApiResult<Json<cosmo_pipeline::stats::UserStats>> {
    crate::ops::memory_stats(&app, &tenant, &user_id)
        .await
        .map(Json)
}

#[derive(Debug, Default, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
#[schema(example = json!({"limit": 50}))]
pub struct TeamExtractionBody {
    /// How many team Sources to ask for at most (1 to 1000, default 100).
    #[serde(
        default,
        deserialize_with = "cosmo_shared::domain::input::whole_number"
    )]
    #[schema(minimum = 1, maximum = 1000)]
    pub limit: Option<usize>,
}

/// The team Sources whose extraction a batch asked for.
#[derive(Debug, Serialize, ToSchema)]
pub struct TeamExtractions {
    /// Their entity keys, in key order; each has its extraction job queued, as
    /// `POST /api/sources/{key}/extractions` queues one.
    pub requested: Vec<String>,
    /// More are left: ask again.
    pub more: bool,
}

/// Extract a user's team Sources in a batch
///
/// A participant's extraction of a team Source runs when they first need it; this asks
/// for it now, for the next `limit` team Sources the user takes part in but does not own
/// whose extraction for them was never asked for or failed for good (their own are
/// extracted for them already). Ask again while `more` is true; asking again never asks
/// twice for the same Source.
#[utoipa::path(post, path = "/api/users/{user_id}/extractions", tag = "users",
    request_body(content = Option<TeamExtractionBody>, description = "Optional: without a \
        body, up to 100"),
    params(("user_id" = String, Path, description = "The user id", min_length = 1,
        max_length = 128, pattern = r"^(?!\.\.?$)[A-Za-z0-9._@:-]+$")),
    responses(
        (status = 202, description = "The Sources asked for", body = TeamExtractions),
        (status = 404, description = "Not a user of the caller's tenant", body = ErrorBody),
        (status = 422, description = "The user id or `limit` is invalid", body = ErrorBody),
    ))]
pub async fn extract_team_sources(
    State(app): State<AppState>,
    tenant: Tenant,
    RequestId(request_id): RequestId,
    Path(user_id): Path<String>,
    body: OptionalJsonBody,
) -> ApiResult<(StatusCode, Json<TeamExtractions>)> {
    let user_id = parse_user_id("user_id", &user_id)?;
    let body: TeamExtractionBody = body.or_default()?;
    let limit = match body.limit.unwrap_or(100) {
        n @ 1..=1000 => n,
        _ => return Err(FieldError::new("limit", "must be from 1 to 1000").into()),
    };
    let user = tenant_user(&app, &tenant, &user_id).await?;
    let (requested, more) =
        cosmo_pipeline::request_team_extractions(&app.svc, &user, limit, request_id).await?;
    Ok((
        StatusCode::ACCEPTED,
        Json(TeamExtractions { requested, more }),
    ))
}

/// Erase a user
///
/// Everything of the user, gone: Sources, nodes, facts, queued jobs, usage rows and the
/// directory entry.
#[utoipa::path(delete, path = "/api/users/{user_id}", tag = "users",
    params(("user_id" = String, Path, description = "The user id", min_length = 1,
        max_length = 128, pattern = r"^(?!\.\.?$)[A-Za-z0-9._@:-]+$")),
    responses(
        (status = 200, description = "What was erased", body = cosmo_pipeline::erasure::ErasureReport),
        (status = 404, description = "Not a user of the caller's tenant", body = ErrorBody),
        (status = 422, description = "The user id is invalid", body = ErrorBody),
    ))]
pub async fn erase(
    State(app): State<AppState>,
    tenant: Tenant,
    Path(user_id): Path<String>,
) -> ApiResult<Json<cosmo_pipeline::erasure::ErasureReport>> {
    let user_id = parse_user_id("user_id", &user_id)?;
    let graph_user_id = super::access::tenant_user(&app, &tenant, &user_id).await?;
    Ok(Json(
        cosmo_pipeline::erasure::erase_user(&app.svc, &graph_user_id).await?,
    ))
}

async fn view(app: &AppState, tenant: &Tenant, user_id: &str) -> ApiResult<UserView> {
    let user = app
        .svc
        .directory
        .tenant_user(&tenant.id, user_id)
        .await?
        .ok_or_else(|| ApiError::NotFound(format!("user {user_id} not found")))?;
    let owner = app.svc.graph.owner(&user.graph_user_id).await?;
    Ok(UserView {
        user_id: user.user_id,
        full_name: user.full_name,
        owner_entity_key: owner.as_ref().map(|o| o.entity_key.clone()),
        owner_canonical_name: owner.map(|o| o.identity.name),
        created_at: user.created_at,
        updated_at: user.updated_at,
    })
}
