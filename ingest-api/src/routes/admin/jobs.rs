//! The queue's jobs as the admin endpoints show them ([`JobView`]): listed by state and
//! kind (`GET /api/admin/jobs`), counted (`GET /api/admin/jobs/counts`) and one by one
//! (`GET /api/admin/jobs/{job_id}`).

use axum::Json;
use axum::extract::{Query, State};
use chrono::{DateTime, Utc};
use cosmo_shared::domain::OrUnknown;
use cosmo_shared::domain::input::FieldError;
use cosmo_shared::queue::{JobCounts, JobFilter, JobKind, JobRecord, JobState, JobStatus};
use serde::{Deserialize, Serialize};

use utoipa::{IntoParams, ToSchema};

use super::{admin_limit, queue_down, require_admin};
use crate::AppState;
use crate::error::{ApiError, ApiResult, ErrorBody};
use crate::extract::{Path, Tenant};

/// A job as the admin endpoints show it.
#[derive(Debug, Serialize, ToSchema)]
#[schema(example = json!({"job_id": "01JD2W5Q8Z3K4M6N7P8R9S0T1V", "kind": "extract-entities",
    "state": "dead", "status": "Killed", "attempts": 1, "max_attempts": 12,
    "run_at": "2026-11-22T13:28:05Z", "done_at": "2026-11-22T13:28:06Z",
    "idempotency_key": "6a00ca70-4a24-51f5-9423-6ce74b60a71f:bob",
    "last_error": "AbortError: bob is not a participant of source 6a00ca70-4a24-51f5-9423-6ce74b60a71f",
    "lock_by": null,
    "payload": {"entity_key": "6a00ca70-4a24-51f5-9423-6ce74b60a71f", "user_id": "bob"},
    "request_id": "sync-2026-11-02"}))]
pub struct JobView {
    pub job_id: String,
    #[schema(value_type = String)]
    pub kind: OrUnknown<JobKind>,
    /// `pending`, `running`, `done`, `failed` (will retry) or `dead` (failed for good).
    pub state: JobState,
    /// apalis' own status (`Pending`, `Queued`, `Running`, `Done`, `Failed`, `Killed`).
    #[schema(value_type = String)]
    pub status: OrUnknown<JobStatus>,
    pub attempts: i64,
    pub max_attempts: i64,
    pub run_at: Option<DateTime<Utc>>,
    pub done_at: Option<DateTime<Utc>>,
    pub idempotency_key: Option<String>,
    /// The error of the last failed attempt.
    pub last_error: Option<String>,
    /// The worker holding it, while running.
    pub lock_by: Option<String>,
    /// What the job works on (its kind's payload).
    #[schema(value_type = Option<Object>)]
    pub payload: Option<serde_json::Value>,
    /// The `x-request-id` of the API call that enqueued it.
    pub request_id: Option<String>,
}

impl From<JobRecord> for JobView {
    fn from(j: JobRecord) -> Self {
        let state = j.state();
        let (payload, request_id) = j
            .payload
            .map_or((None, None), |e| (Some(e.payload), e.request_id));
        Self {
            job_id: j.job_id,
            kind: j.kind,
            state,
            status: j.status,
            attempts: j.attempts,
            max_attempts: j.max_attempts,
            run_at: j.run_at,
            done_at: j.done_at,
            idempotency_key: j.idempotency_key,
            last_error: j.last_error,
            lock_by: j.lock_by,
            payload,
            request_id,
        }
    }
}

#[derive(Debug, Deserialize, IntoParams)]
#[serde(deny_unknown_fields)]
#[into_params(parameter_in = Query)]
pub struct JobsParams {
    /// `pending` (due or scheduled), `running`, `done`, `failed` (will retry after its
    /// backoff) or `dead` (failed for good).
    #[param(value_type = Option<JobState>)]
    pub state: Option<String>,
    /// A job kind, e.g. `process-source`.
    #[param(value_type = Option<JobKind>)]
    pub kind: Option<String>,
    /// At most this many (default 50, at most 1000).
    #[param(minimum = 1, maximum = 1000)]
    pub limit: Option<usize>,
}

/// List the queue's jobs
///
/// Newest first (by job id, a ULID: enqueue time to the millisecond), optionally of one state and kind.
/// `state` is derived from apalis' `status` and the attempts: `pending` (`Pending`),
/// `running` (`Queued`, `Running`), `done`, `failed` (`Failed` with attempts left),
/// `dead` (`Killed`, or `Failed` with none left).
#[utoipa::path(get, path = "/api/admin/jobs", tag = "admin", params(JobsParams),
    responses(
        (status = 200, description = "The jobs", body = Vec<JobView>),
        (status = 422, description = "An unknown state, kind or query parameter", body = ErrorBody),
        (status = 503, description = "The job queue is unreachable", body = ErrorBody),
    ))]
pub async fn jobs(
    State(app): State<AppState>,
    tenant: Tenant,
    params: Result<Query<JobsParams>, axum::extract::rejection::QueryRejection>,
) -> ApiResult<Json<Vec<JobView>>> {
    require_admin(&tenant)?;
    let Query(p) =
        params.map_err(|e| ApiError::Validation(FieldError::new("query", e.body_text())))?;
    let filter = JobFilter {
        state: p
            .state
            .as_deref()
            .map(|s| s.parse::<JobState>())
            .transpose()
            .map_err(|e| ApiError::Validation(FieldError::new("state", e.to_string())))?,
        kind: p
            .kind
            .as_deref()
            .map(|k| k.parse::<JobKind>())
            .transpose()
            .map_err(|e| ApiError::Validation(FieldError::new("kind", e.to_string())))?,
        limit: admin_limit(p.limit)?,
    };
    let jobs = app.svc.queue.list_jobs(&filter).await.map_err(queue_down)?;
    Ok(Json(jobs.into_iter().map(JobView::from).collect()))
}

/// Count jobs by kind and state
///
/// One row per job kind that has jobs, and the total.
#[utoipa::path(get, path = "/api/admin/jobs/counts", tag = "admin",
    responses(
        (status = 200, description = "Jobs per kind and state", body = JobCounts),
        (status = 503, description = "The job queue is unreachable", body = ErrorBody),
    ))]
pub async fn job_counts(State(app): State<AppState>, tenant: Tenant) -> ApiResult<Json<JobCounts>> {
    require_admin(&tenant)?;
    let counts = app.svc.queue.state_counts().await.map_err(queue_down)?;
    Ok(Json(JobCounts::tally(&counts)))
}

/// One job
#[utoipa::path(get, path = "/api/admin/jobs/{job_id}", tag = "admin",
    params(("job_id" = String, Path, description = "The job's id (a ULID)")),
    responses(
        (status = 200, description = "The job", body = JobView),
        (status = 404, description = "No such job", body = ErrorBody),
        (status = 503, description = "The job queue is unreachable", body = ErrorBody),
    ))]
pub async fn job(
    State(app): State<AppState>,
    tenant: Tenant,
    Path(job_id): Path<String>,
) -> ApiResult<Json<JobView>> {
    require_admin(&tenant)?;
    let job = app.svc.queue.job(&job_id).await.map_err(queue_down)?;
    job.map(|j| Json(j.into()))
        .ok_or_else(|| ApiError::NotFound(format!("job {job_id} not found")))
}
