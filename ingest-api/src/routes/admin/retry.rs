//! Putting jobs back to pending: one job (`POST /api/admin/jobs/{job_id}/retry`, and the
//! dashboard's form) or every dead one (`POST /api/admin/jobs/retry`).

use axum::Json;
use axum::extract::State;
use cosmo_shared::domain::input::FieldError;
use cosmo_shared::queue::{JobKind, JobRecord, Retry};
use serde::{Deserialize, Serialize};

use utoipa::ToSchema;

use super::jobs::JobView;
use super::{queue_down, require_admin};
use crate::AppState;
use crate::error::{ApiError, ApiResult, ErrorBody};
use crate::extract::{OptionalJsonBody, Path, Tenant};

/// Puts a failed, dead or done job back to pending with fresh attempts: 404 for an
/// unknown job, 409 for a pending or running one. Shared with the dashboard's form.
pub(crate) async fn retry(app: &AppState, job_id: &str) -> ApiResult<JobRecord> {
    let q = &app.svc.queue;
    let outcome = q.retry(job_id).await.map_err(queue_down)?;
    match (&outcome, outcome.refusal(job_id)) {
        (Retry::NotFound, Some(why)) => return Err(ApiError::NotFound(why)),
        (_, Some(why)) => return Err(ApiError::Conflict(why)),
        (_, None) => {}
    }
    q.job(job_id)
        .await
        .map_err(queue_down)?
        .ok_or_else(|| ApiError::NotFound(format!("job {job_id} not found")))
}

/// Retry a job
///
/// Puts a dead, failed or done job back to `pending` with fresh attempts (its error
/// stays until it runs again).
#[utoipa::path(post, path = "/api/admin/jobs/{job_id}/retry", tag = "admin",
    params(("job_id" = String, Path, description = "The job's id (a ULID)")),
    responses(
        (status = 200, description = "The job, pending again", body = JobView),
        (status = 404, description = "No such job", body = ErrorBody),
        (status = 409, description = "The job is pending or running: nothing to retry",
            body = ErrorBody),
        (status = 503, description = "The job queue is unreachable", body = ErrorBody),
    ))]
pub async fn retry_job(
    State(app): State<AppState>,
    tenant: Tenant,
    Path(job_id): Path<String>,
) -> ApiResult<Json<JobView>> {
    require_admin(&tenant)?;
    Ok(Json(retry(&app, &job_id).await?.into()))
}

#[derive(Debug, Default, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct RetryDeadBody {
    /// Only dead jobs of this kind (default: every kind).
    #[schema(value_type = Option<JobKind>)]
    pub kind: Option<String>,
}

#[derive(Debug, Serialize, ToSchema)]
pub struct Retried {
    /// How many dead jobs were put back to pending.
    pub retried: u64,
}

/// Retry every dead job
///
/// Puts every job that failed for good (of one kind, or all; the body is optional)
/// back to `pending` with fresh attempts. Jobs that will retry by themselves are left
/// alone.
#[utoipa::path(post, path = "/api/admin/jobs/retry", tag = "admin",
    request_body(content = Option<RetryDeadBody>, description = "Optional: without a body, dead \
        jobs of every kind are retried", example = json!({"kind": "extract-entities"})),
    responses(
        (status = 200, description = "How many were retried", body = Retried),
        (status = 422, description = "An unknown kind or field", body = ErrorBody),
        (status = 503, description = "The job queue is unreachable", body = ErrorBody),
    ))]
pub async fn retry_dead(
    State(app): State<AppState>,
    tenant: Tenant,
    body: OptionalJsonBody,
) -> ApiResult<Json<Retried>> {
    require_admin(&tenant)?;
    let body: RetryDeadBody = body.or_default()?;
    let kind = body
        .kind
        .as_deref()
        .map(|k| k.parse::<JobKind>())
        .transpose()
        .map_err(|e| ApiError::Validation(FieldError::new("kind", e.to_string())))?;
    let retried = app.svc.queue.retry_dead(kind).await.map_err(queue_down)?;
    Ok(Json(Retried { retried }))
}
