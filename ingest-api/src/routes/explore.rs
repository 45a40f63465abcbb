//! Retrieval: `POST /api/explore` at three granularities, drill-down from a Macro to its
//! Storylines (`GET /api/macros/{id}`) and from a Storyline to its Sources
//! (`GET /api/storylines/{id}`), and `POST /api/context` for prompts.

use axum::Json;
use axum::extract::State;
use cosmo_pipeline::retrieval::context::Context;
use cosmo_pipeline::retrieval::{self, Exploration, MacroView, StorylineView};
use cosmo_shared::domain::MemoryKind;
use cosmo_shared::domain::input::read::{ContextBody, ExploreBody};

use super::access::memory_owner;
use crate::AppState;
use crate::error::{ApiError, ApiResult, ErrorBody};
use crate::extract::{JsonBody, Path, RequestId, Tenant};
use crate::ops;

/// Explore a user's memory
///
/// Hybrid retrieval (vector, full text, graph neighbours; fused and re-ranked by
/// importance) at one of three granularities: 1 Sources and semantic nodes, 2
/// Storylines, 3 Macros. Every result says why it was returned. Returned memories count
/// as recalled.
#[utoipa::path(post, path = "/api/explore", tag = "retrieval", request_body = ExploreBody,
    responses(
        (status = 200, description = "Ranked memories, best first", body = Exploration),
        (status = 404, description = "`user_id` is not a user of the caller's tenant", body = ErrorBody),
        (status = 422, description = "A field is invalid (`field` names it)", body = ErrorBody),
        (status = 503, description = "A store is out of reach, or the request took longer than \
            `server.request_timeout_secs` (an unavailable embedding model is no error: the \
            answer says `degraded`)", body = ErrorBody),
    ))]
pub async fn explore(
    State(app): State<AppState>,
    tenant: Tenant,
    RequestId(request_id): RequestId,
    JsonBody(body): JsonBody,
) -> ApiResult<Json<Exploration>> {
    ops::explore(&app, &tenant, body, request_id)
        .await
        .map(Json)
}

/// Context for a prompt
///
/// The most useful memory for a message within a token budget, rendered as markdown,
/// XML or JSON: the user's profile and confirmed facts first, then relevant facts, the
/// notes that match the message (each with its date and Source), people and topics,
/// Storylines and episodes. An item that does not fit is left out whole, and
/// `truncated` says so.
#[utoipa::path(post, path = "/api/context", tag = "retrieval", request_body = ContextBody,
    responses(
        (status = 200, description = "The rendered context", body = Context),
        (status = 404, description = "`user_id` is not a user of the caller's tenant", body = ErrorBody),
        (status = 422, description = "A field is invalid (`field` names it)", body = ErrorBody),
        (status = 503, description = "A store is out of reach, or the request took longer than \
            `server.request_timeout_secs` (an unavailable embedding model is no error: the \
            answer says `degraded`)", body = ErrorBody),
    ))]
pub async fn context(
    State(app): State<AppState>,
    tenant: Tenant,
    RequestId(request_id): RequestId,
    JsonBody(body): JsonBody,
) -> ApiResult<Json<Context>> {
    ops::context(&app, &tenant, body, request_id)
        .await
        .map(Json)
}

/// A Storyline with its Sources
///
/// The Storyline and its Sources' metadata; counts as a recall of the Storyline.
#[utoipa::path(get, path = "/api/storylines/{id}", tag = "retrieval",
    params(("id" = String, Path, description = "The Storyline's id")),
    responses(
        (status = 200, description = "The Storyline", body = StorylineView),
        (status = 404, description = "No such Storyline for the caller's tenant", body = ErrorBody),
    ))]
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

/// A Macro with its Storylines
///
/// The Macro and its Storylines' metadata; counts as a recall of the Macro.
#[utoipa::path(get, path = "/api/macros/{id}", tag = "retrieval",
    params(("id" = String, Path, description = "The Macro's id")),
    responses(
        (status = 200, description = "The Macro", body = MacroView),
        (status = 404, description = "No such Macro for the caller's tenant", body = ErrorBody),
    ))]
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
