//! `GET /api/entities/{key}`: a semantic node with its description, live notes,
//! relationships (with the other end's name), the Sources mentioning it and the
//! Storylines about it (built by [`ops::entity_info`]).

use axum::Json;
use axum::extract::State;

use crate::AppState;
use crate::error::{ApiResult, ErrorBody};
use crate::extract::{Path, Tenant};
use crate::ops::{self, EntityView};

/// A Person, Concept or Entity
///
/// A semantic node with its description, live notes (newest first), relationships (with
/// the other end's name), the Sources mentioning it and the Storylines about it. Reading
/// an entity counts as recalling it.
#[utoipa::path(get, path = "/api/entities/{key}", tag = "entities",
    params(("key" = String, Path, description = "The node's entity key")),
    responses(
        (status = 200, description = "The entity", body = EntityView),
        (status = 404, description = "No such entity for the caller's tenant", body = ErrorBody),
    ))]
pub async fn get(
    State(app): State<AppState>,
    tenant: Tenant,
    Path(key): Path<String>,
) -> ApiResult<Json<EntityView>> {
    ops::entity_info(&app, &tenant, &key).await.map(Json)
}
