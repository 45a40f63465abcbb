//! `PUT /api/users/{user_id}` stores the profile and creates (or renames) the user's
//! owner Person from the full name; `GET` reads it back.

use axum::Json;
use axum::extract::{Path, State};
use chrono::{DateTime, Utc};
use cosmo_shared::domain::input::{ProfileInput, parse_user_id};
use serde::Serialize;

use crate::AppState;
use crate::error::{ApiError, ApiResult};
use crate::extract::{JsonBody, Tenant};

#[derive(Debug, Serialize)]
pub struct UserView {
    pub user_id: String,
    pub full_name: Option<String>,
    /// The entity key of the user's owner Person, once a profile exists.
    pub owner_entity_key: Option<String>,
    pub owner_canonical_name: Option<String>,
    pub created_at: DateTime<Utc>,
    pub updated_at: DateTime<Utc>,
}

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
    if svc
        .directory
        .claim_users(&tenant.id, std::slice::from_ref(&user_id), now)
        .await?
        .is_err()
    {
        return Err(ApiError::Forbidden(format!(
            "user {user_id} belongs to another tenant"
        )));
    }
    // The graph first: a name clash (409) must leave the stored profile unchanged.
    svc.graph
        .upsert_owner(&user_id, &profile.full_name, now)
        .await?;
    svc.directory
        .set_profile(&user_id, &profile.full_name, now)
        .await?;
    view(&app, &tenant, &user_id).await.map(Json)
}

pub async fn get(
    State(app): State<AppState>,
    tenant: Tenant,
    Path(user_id): Path<String>,
) -> ApiResult<Json<UserView>> {
    let user_id = parse_user_id("user_id", &user_id)?;
    view(&app, &tenant, &user_id).await.map(Json)
}

/// `DELETE /api/users/{user_id}`: everything of the user, gone (SPEC §6).
pub async fn erase(
    State(app): State<AppState>,
    tenant: Tenant,
    Path(user_id): Path<String>,
) -> ApiResult<Json<cosmo_shared::erasure::ErasureReport>> {
    let user_id = parse_user_id("user_id", &user_id)?;
    super::access::tenant_user(&app, &tenant, &user_id).await?;
    Ok(Json(
        cosmo_shared::erasure::erase_user(&app.svc, &user_id).await?,
    ))
}

async fn view(app: &AppState, tenant: &Tenant, user_id: &str) -> ApiResult<UserView> {
    let user = app
        .svc
        .directory
        .user(user_id)
        .await?
        .filter(|u| u.tenant_id == tenant.id)
        .ok_or_else(|| ApiError::NotFound(format!("user {user_id} not found")))?;
    let owner = app.svc.graph.owner(user_id).await?;
    Ok(UserView {
        user_id: user.user_id,
        full_name: user.full_name,
        owner_entity_key: owner.as_ref().map(|o| o.entity_key.clone()),
        owner_canonical_name: owner.map(|o| o.identity.name),
        created_at: user.created_at,
        updated_at: user.updated_at,
    })
}
