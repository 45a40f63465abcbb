//! Retrieval (SPEC §5): `POST /api/explore` at three granularities, drill-down from a
//! Macro to its Storylines (`GET /api/macros/{id}`) and from a Storyline to its Sources
//! (`GET /api/storylines/{id}`), and `POST /api/context` for prompts.

use axum::Json;
use axum::extract::{Path, State};
use cosmo_shared::domain::MemoryKind;
use cosmo_shared::domain::input::read::{ContextInput, ExploreInput};
use cosmo_shared::retrieval::context::{self, Context};
use cosmo_shared::retrieval::{self, Exploration, MacroView, StorylineView};

use super::access::{memory_owner, tenant_user};
use crate::AppState;
use crate::error::{ApiError, ApiResult};
use crate::extract::{JsonBody, RequestId, Tenant};

pub async fn explore(
    State(app): State<AppState>,
    tenant: Tenant,
    RequestId(request_id): RequestId,
    JsonBody(body): JsonBody,
) -> ApiResult<Json<Exploration>> {
    let input = ExploreInput::parse(body)?;
    tenant_user(&app, &tenant, &input.user_id).await?;
    Ok(Json(
        retrieval::explore(&app.svc, &input, request_id).await?,
    ))
}

pub async fn context(
    State(app): State<AppState>,
    tenant: Tenant,
    RequestId(request_id): RequestId,
    JsonBody(body): JsonBody,
) -> ApiResult<Json<Context>> {
    let input = ContextInput::parse(body)?;
    tenant_user(&app, &tenant, &input.user_id).await?;
    Ok(Json(context::build(&app.svc, &input, request_id).await?))
}

/// A Storyline and its Sources' metadata; counts as a recall of the Storyline.
pub async fn storyline(
    State(app): State<AppState>,
    tenant: Tenant,
    Path(id): Path<String>,
) -> ApiResult<Json<StorylineView>> {
    memory_owner(&app, &tenant, MemoryKind::Storyline, &id).await?;
    let svc = &app.svc;
    let s = svc
        .graph
        .storyline(&id)
        .await?
        .ok_or_else(|| ApiError::NotFound(format!("storyline {id} not found")))?;
    let access =
        retrieval::record_access(svc, MemoryKind::Storyline, std::slice::from_ref(&id)).await?;
    let l = access
        .get(&id)
        .cloned()
        .unwrap_or_else(|| s.lifecycle.clone());
    Ok(Json(retrieval::storyline_view(svc, s, &l).await?))
}

/// A Macro and its Storylines' metadata; counts as a recall of the Macro.
pub async fn macro_(
    State(app): State<AppState>,
    tenant: Tenant,
    Path(id): Path<String>,
) -> ApiResult<Json<MacroView>> {
    memory_owner(&app, &tenant, MemoryKind::Macro, &id).await?;
    let svc = &app.svc;
    let m = svc
        .graph
        .macro_by_id(&id)
        .await?
        .ok_or_else(|| ApiError::NotFound(format!("macro {id} not found")))?;
    let access =
        retrieval::record_access(svc, MemoryKind::Macro, std::slice::from_ref(&id)).await?;
    let l = access
        .get(&id)
        .cloned()
        .unwrap_or_else(|| m.lifecycle.clone());
    Ok(Json(retrieval::macro_view(svc, m, &l).await?))
}
