//! `PUT /api/users/{user_id}` stores the profile and creates (or renames) the user's
//! owner Person from the full name; `GET` reads it back; `GET …/stats` counts the
//! user's memory; `DELETE` erases the user.

use axum::Json;
use axum::extract::State;
use chrono::{DateTime, Utc};
use cosmo_shared::domain::input::{ProfileInput, parse_user_id};
use serde::Serialize;
use utoipa::ToSchema;

use crate::AppState;
use crate::error::{ApiError, ApiResult, ErrorBody};
use crate::extract::{JsonBody, Path, Tenant};

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
