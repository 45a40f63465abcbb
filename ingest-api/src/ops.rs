//! What an agent does with memory — explore, context, remember / correct / confirm /
//! explain / list facts and the weak ones ([`facts`]), read an entity ([`entity`]), count a
//! user's memory, keep a live session ([`sessions`]) — once, for both doors: the REST
//! handlers ([`crate::routes`]) and the MCP tools ([`crate::mcp`]) call these with the
//! caller's [`Tenant`] and the body as posted, and get the answer or the same
//! [`ApiError`](crate::error::ApiError).
//! Bodies are parsed here (precise field errors, nothing written on bad input), and a
//! user or memory outside the caller's tenant does not exist (404).

use cosmo_pipeline::retrieval::context::{self, Context};
use cosmo_pipeline::retrieval::{self, Exploration};
use cosmo_pipeline::stats::UserStats;
use cosmo_shared::domain::input::parse_user_id;
use cosmo_shared::domain::input::read::{ContextInput, ExploreInput};
use serde_json::Value;

use crate::AppState;
use crate::error::ApiResult;
use crate::extract::Tenant;
use crate::routes::access::tenant_user;

pub mod entity;
pub mod facts;
pub mod sessions;

pub use entity::{EntityView, RelatedView, entity_info};
pub use facts::{
    FactList, FactListParams, WeakFacts, WeakParams, confirm_fact, correct_fact, explain_fact,
    list_facts, remember_fact, weak_facts,
};

/// Hybrid retrieval over a user's memory (`POST /api/explore`).
pub async fn explore(
    app: &AppState,
    tenant: &Tenant,
    body: Value,
    request_id: Option<String>,
) -> ApiResult<Exploration> {
    let mut input = ExploreInput::parse(body)?;
    input.user_id = tenant_user(app, tenant, &input.user_id).await?;
    Ok(retrieval::explore(&app.svc, &input, request_id).await?)
}

/// The best memory for a message within a token budget (`POST /api/context`).
pub async fn context(
    app: &AppState,
    tenant: &Tenant,
    body: Value,
    request_id: Option<String>,
) -> ApiResult<Context> {
    let mut input = ContextInput::parse(body)?;
    input.user_id = tenant_user(app, tenant, &input.user_id).await?;
    Ok(context::build(&app.svc, &input, request_id).await?)
}

/// A user's memory in numbers (`GET /api/users/{user_id}/stats`): memories by kind and
/// state, links, orphan nodes, extractions by status, storage, and when each maintenance
/// job last ran. Only reads: nothing counts as recalled.
pub async fn memory_stats(app: &AppState, tenant: &Tenant, user_id: &str) -> ApiResult<UserStats> {
    let user_id = parse_user_id("user_id", user_id)?;
    let graph_user_id = tenant_user(app, tenant, &user_id).await?;
    Ok(cosmo_pipeline::stats::user_stats(&*app.svc.graph, &app.svc.runs, &graph_user_id).await?)
}
