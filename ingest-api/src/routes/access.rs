//! Who may read what: a caller reaches the users of its own tenant only. A user is
//! (tenant, user id): the caller's `alex` is looked up among its own tenant's users, so
//! another tenant's `alex` is another user, and a memory of another tenant's user does
//! not exist for the caller (404): nothing tells a tenant which ids others use.

use cosmo_pipeline::retrieval::RetrievalError;
use cosmo_shared::domain::MemoryKind;

use crate::AppState;
use crate::error::{ApiError, ApiResult};
use crate::extract::Tenant;

/// The graph user id of the caller's user `user_id`, or 404 if the tenant has none.
pub async fn tenant_user(app: &AppState, tenant: &Tenant, user_id: &str) -> ApiResult<String> {
    let directory = &app.svc.directory;
    match directory
        .graph_user_id_recent(&tenant.id, user_id, tenant.lookups)
        .await?
    {
        Some(graph_user_id) => Ok(graph_user_id),
        None => Err(ApiError::NotFound(format!("user {user_id} not found"))),
    }
}

/// Whether the user the graph knows as `graph_user_id` is a user of the caller's tenant.
pub async fn in_tenant(app: &AppState, tenant: &Tenant, graph_user_id: &str) -> ApiResult<bool> {
    let directory = &app.svc.directory;
    Ok(directory
        .tenant_of_recent(graph_user_id, tenant.lookups)
        .await?
        .is_some_and(|t| t == tenant.id))
}

/// The owner (graph user id) of a memory the caller may reach, or 404.
pub async fn memory_owner(
    app: &AppState,
    tenant: &Tenant,
    kind: MemoryKind,
    key: &str,
) -> ApiResult<String> {
    let not_found = || ApiError::NotFound(format!("{kind} {key} not found"));
    let m = app
        .svc
        .graph
        .memory(kind, key)
        .await?
        .ok_or_else(not_found)?;
    if in_tenant(app, tenant, &m.user_id).await? {
        Ok(m.user_id)
    } else {
        Err(not_found())
    }
}

impl From<RetrievalError> for ApiError {
    fn from(e: RetrievalError) -> Self {
        match e {
            RetrievalError::Graph(g) => g.into(),
            RetrievalError::Model(m) if m.is_retryable() => Self::Unavailable {
                message: format!("the embedding model is unavailable: {m}"),
                detail: None,
            },
            RetrievalError::Model(m) => Self::Internal(anyhow::Error::new(m)),
            RetrievalError::Other(e) => Self::Internal(e),
        }
    }
}
