//! Lifecycle control for any memory — `source`, `node`, `relationship`, `storyline`,
//! `macro`, `fact`: `GET /api/memories/{kind}/{key}` (its lifecycle), `POST …/{action}`
//! with action `pin`, `unpin`, `archive`, `restore` (409 on a pinned memory's state) or
//! `ttl_keep_forever`, `ttl_ephemeral`, `ttl_decay` (how it ages),
//! and `GET …/events`, the lifecycle event log, oldest first.

use axum::Json;
use axum::extract::State;
use cosmo_shared::domain::input::FieldError;
use cosmo_shared::domain::{LifecycleEvent, MemoryKind, MemoryLifecycle};
use cosmo_shared::lifecycle::control::{self, Control};
use serde::Serialize;
use utoipa::ToSchema;

use super::access::memory_owner;
use crate::AppState;
use crate::error::{ApiError, ApiResult, ErrorBody};
use crate::extract::{Path, Tenant};

fn kind(s: &str) -> ApiResult<MemoryKind> {
    s.parse::<MemoryKind>()
        .map_err(|e| FieldError::new("kind", e.to_string()).into())
}

/// A memory's lifecycle
///
/// Salience, state, confidence, access counts, TTL policy and pin of any memory.
#[utoipa::path(get, path = "/api/memories/{kind}/{key}", tag = "memories",
    params(
        ("kind" = MemoryKind, Path, description = "What kind of memory `key` names"),
        ("key" = String, Path, description = "Its key (entity key or id)"),
    ),
    responses(
        (status = 200, description = "The lifecycle", body = MemoryLifecycle),
        (status = 404, description = "No such memory for the caller's tenant", body = ErrorBody),
        (status = 422, description = "Unknown `kind`", body = ErrorBody),
    ))]
pub async fn get(
    State(app): State<AppState>,
    tenant: Tenant,
    Path((kind_s, key)): Path<(String, String)>,
) -> ApiResult<Json<MemoryLifecycle>> {
    let kind = kind(&kind_s)?;
    memory_owner(&app, &tenant, kind, &key).await?;
    app.svc
        .graph
        .memory(kind, &key)
        .await?
        .map(Json)
        .ok_or_else(|| ApiError::NotFound(format!("{kind} {key} not found")))
}

#[derive(Debug, Serialize, ToSchema)]
pub struct ControlResult {
    pub action: Control,
    /// False when the memory already was so.
    pub changed: bool,
    pub memory: MemoryLifecycle,
    pub event: Option<LifecycleEvent>,
}

/// Pin, unpin, archive or restore a memory, or choose how it ages
///
/// A pinned memory never changes state: archiving or restoring it is refused (409)
/// until it is unpinned. `ttl_keep_forever`, `ttl_ephemeral` and `ttl_decay` set its
/// `ttl_policy` and leave its state as it is (allowed on a pinned memory too): kept
/// forever, its salience is 1 and decay never archives it; ephemeral, decay archives it
/// once its deadline after creation has passed (30 days for a Source, 90 for any other
/// memory, by default); back to decay from keep_forever, it fades from now. Each change
/// is logged with actor `user`. A body, if any, is ignored.
#[utoipa::path(post, path = "/api/memories/{kind}/{key}/{action}", tag = "memories",
    params(
        ("kind" = MemoryKind, Path, description = "What kind of memory `key` names"),
        ("key" = String, Path, description = "Its key (entity key or id)"),
        ("action" = Control, Path, description = "What to do"),
    ),
    responses(
        (status = 200, description = "Done (`changed: false` when it already was so)",
            body = ControlResult),
        (status = 404, description = "No such memory for the caller's tenant, or unknown \
            action", body = ErrorBody),
        (status = 409, description = "The memory is pinned", body = ErrorBody),
        (status = 422, description = "Unknown `kind`", body = ErrorBody),
    ))]
pub async fn act(
    State(app): State<AppState>,
    tenant: Tenant,
    Path((kind_s, key, action)): Path<(String, String, String)>,
) -> ApiResult<Json<ControlResult>> {
    let kind = kind(&kind_s)?;
    let action: Control = action.parse().map_err(|e: String| ApiError::NotFound(e))?;
    memory_owner(&app, &tenant, kind, &key).await?;
    let svc = &app.svc;
    let now = svc.clock.now();
    // The decision is made again inside the store's transaction, on the state it reads
    // there; a refusal found there (pinned meanwhile) is reported below.
    let update = move |m: &MemoryLifecycle| control::apply(action, m, now).ok().flatten();
    let changes = svc
        .graph
        .update_lifecycles(kind, std::slice::from_ref(&key), &update)
        .await?;
    let memory = svc
        .graph
        .memory(kind, &key)
        .await?
        .ok_or_else(|| ApiError::NotFound(format!("{kind} {key} not found")))?;
    let change = changes.into_iter().next();
    if change.is_none()
        && let Err(refusal) = control::apply(action, &memory, now)
    {
        return Err(ApiError::Conflict(refusal.to_string()));
    }
    Ok(Json(ControlResult {
        action,
        changed: change.is_some(),
        event: change.and_then(|c| c.event),
        memory,
    }))
}

/// A memory's lifecycle events, oldest first.
#[derive(Debug, Serialize, ToSchema)]
pub struct EventLog {
    pub events: Vec<LifecycleEvent>,
}

/// A memory's lifecycle event log
///
/// Every state change, oldest first, with its reason and actor.
#[utoipa::path(get, path = "/api/memories/{kind}/{key}/events", tag = "memories",
    params(
        ("kind" = MemoryKind, Path, description = "What kind of memory `key` names"),
        ("key" = String, Path, description = "Its key (entity key or id)"),
    ),
    responses(
        (status = 200, description = "The events", body = EventLog),
        (status = 404, description = "No such memory for the caller's tenant", body = ErrorBody),
        (status = 422, description = "Unknown `kind`", body = ErrorBody),
    ))]
pub async fn events(
    State(app): State<AppState>,
    tenant: Tenant,
    Path((kind_s, key)): Path<(String, String)>,
) -> ApiResult<Json<EventLog>> {
    let kind = kind(&kind_s)?;
    memory_owner(&app, &tenant, kind, &key).await?;
    let events: Vec<LifecycleEvent> = app
        .svc
        .graph
        .lifecycle_events(&key)
        .await?
        .into_iter()
        .filter(|e| e.memory_kind == kind)
        .collect();
    Ok(Json(EventLog { events }))
}
