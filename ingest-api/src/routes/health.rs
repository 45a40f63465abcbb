//! `/healthz` (the process is up) and `/readyz` (the graph store and the queue answer).
//! No API key: they are for load balancers and orchestrators.

use axum::Json;
use axum::extract::State;
use axum::http::StatusCode;
use serde::Serialize;
use utoipa::ToSchema;

use crate::AppState;

#[derive(Debug, Serialize, ToSchema)]
pub struct Health {
    pub status: HealthStatus,
}

/// Always `ok`: the process answers.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum HealthStatus {
    Ok,
}

/// Liveness
///
/// The process is up. No API key.
#[utoipa::path(get, path = "/healthz", tag = "health",
    responses((status = 200, description = "Up", body = Health)))]
pub async fn healthz() -> Json<Health> {
    Json(Health {
        status: HealthStatus::Ok,
    })
}

#[derive(Debug, Serialize, ToSchema)]
pub struct Readiness {
    pub status: ReadinessStatus,
    pub graph: Dependency,
    pub queue: Dependency,
}

/// A store the API needs, and whether it answered.
#[derive(Debug, Serialize, ToSchema)]
pub struct Dependency {
    /// `sqlite`, `postgres` or `neo4j`.
    pub backend: String,
    pub check: Check,
}

/// `ready` when every store answered, else `not_ready`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum ReadinessStatus {
    Ready,
    NotReady,
}

#[derive(Debug, Serialize, ToSchema)]
pub struct Check {
    pub status: CheckStatus,
    /// Why it is down.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub error: Option<String>,
}

/// `ok` when the store answered, else `down`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum CheckStatus {
    Ok,
    Down,
}

/// Readiness
///
/// The graph store and the queue answer. No API key.
#[utoipa::path(get, path = "/readyz", tag = "health",
    responses(
        (status = 200, description = "Ready", body = Readiness),
        (status = 503, description = "A store does not answer", body = Readiness),
    ))]
pub async fn readyz(State(app): State<AppState>) -> (StatusCode, Json<Readiness>) {
    let graph = app.svc.graph.ping().await.map_err(|e| e.to_string());
    let queue = app.svc.queue.ping().await.map_err(|e| e.to_string());
    let ready = graph.is_ok() && queue.is_ok();
    let dependency = |backend: &str, r: Result<(), String>| Dependency {
        backend: backend.to_owned(),
        check: match r {
            Ok(()) => Check {
                status: CheckStatus::Ok,
                error: None,
            },
            Err(e) => Check {
                status: CheckStatus::Down,
                error: Some(e),
            },
        },
    };
    let body = Readiness {
        status: if ready {
            ReadinessStatus::Ready
        } else {
            ReadinessStatus::NotReady
        },
        graph: dependency(app.svc.graph.backend(), graph),
        queue: dependency(app.svc.queue.backend(), queue),
    };
    let status = if ready {
        StatusCode::OK
    } else {
        StatusCode::SERVICE_UNAVAILABLE
    };
    (status, Json(body))
}
