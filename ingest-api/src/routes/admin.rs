//! Operator endpoints; admin keys only: `GET /api/admin/usage` sums the usage ledger by
//! tenant, user and job kind over a time range; `GET /api/admin/jobs/runs` lists what
//! periodic jobs did; `POST /api/admin/jobs/{kind}/run` runs one now (optionally for a
//! past or future as-of time). The queue itself: `GET /api/admin/jobs` (by state and
//! kind), `GET /api/admin/jobs/counts`, `GET /api/admin/jobs/{job_id}`,
//! `POST /api/admin/jobs/{job_id}/retry` and `POST /api/admin/jobs/retry` (every dead
//! job).

use axum::Json;
use axum::extract::{Query, State};
use axum::http::StatusCode;
use chrono::{DateTime, Duration, Utc};
use cosmo_shared::domain::OrUnknown;
use cosmo_shared::domain::input::FieldError;
use cosmo_shared::job_runs::JobRun;
use cosmo_shared::queue::payloads::Periodic;
use cosmo_shared::queue::{
    JobCounts, JobFilter, JobKind, JobRecord, JobState, JobStatus, QueueError, Retry,
};
use cosmo_shared::usage::UsageSum;
use serde::{Deserialize, Serialize};

use utoipa::{IntoParams, ToSchema};

use crate::AppState;
use crate::error::{ApiError, ApiResult, ErrorBody};
use crate::extract::{OptionalJsonBody, Path, Tenant};

pub(crate) fn require_admin(tenant: &Tenant) -> ApiResult<()> {
    if tenant.is_admin {
        Ok(())
    } else {
        Err(ApiError::Forbidden(
            "this endpoint needs an admin API key".into(),
        ))
    }
}

#[derive(Debug, Deserialize, IntoParams)]
#[serde(deny_unknown_fields)]
#[into_params(parameter_in = Query)]
pub struct UsageParams {
    /// RFC 3339, not after `to`; default 30 days before `to`.
    #[param(format = DateTime)]
    pub from: Option<String>,
    /// RFC 3339, exclusive; default now.
    #[param(format = DateTime)]
    pub to: Option<String>,
    /// Only this tenant.
    pub tenant_id: Option<String>,
}

#[derive(Debug, Serialize, ToSchema)]
pub struct UsageReport {
    pub from: DateTime<Utc>,
    pub to: DateTime<Utc>,
    /// One row per (tenant, user, job kind).
    pub rows: Vec<UsageSum>,
    pub calls: i64,
    pub prompt_tokens: i64,
    pub completion_tokens: i64,
}

/// Model token usage
///
/// The usage ledger summed by tenant, user and job kind over `[from, to)`, with totals.
#[utoipa::path(get, path = "/api/admin/usage", tag = "admin", params(UsageParams),
    responses(
        (status = 200, description = "Usage by tenant, user and job kind", body = UsageReport),
        (status = 422, description = "A bad time, `from` after `to`, or an unknown query \
            parameter", body = ErrorBody),
    ))]
pub async fn usage(
    State(app): State<AppState>,
    tenant: Tenant,
    params: Result<Query<UsageParams>, axum::extract::rejection::QueryRejection>,
) -> ApiResult<Json<UsageReport>> {
    require_admin(&tenant)?;
    let Query(p) =
        params.map_err(|e| ApiError::Validation(FieldError::new("query", e.body_text())))?;
    let time = |field: &str, v: &Option<String>| -> ApiResult<Option<DateTime<Utc>>> {
        v.as_deref()
            .map(|s| {
                DateTime::parse_from_rfc3339(s)
                    .map(|t| t.with_timezone(&Utc))
                    .map_err(|_| {
                        ApiError::Validation(FieldError::new(
                            field,
                            "must be an RFC 3339 timestamp",
                        ))
                    })
            })
            .transpose()
    };
    let to = time("to", &p.to)?.unwrap_or_else(|| app.svc.clock.now());
    let from = time("from", &p.from)?.unwrap_or(to - Duration::days(30));
    if from > to {
        return Err(ApiError::Validation(FieldError::new(
            "from",
            "must not be after `to`",
        )));
    }
    let rows = app
        .svc
        .usage
        .summary(p.tenant_id.as_deref(), from, to)
        .await?;
    Ok(Json(UsageReport {
        from,
        to,
        calls: rows.iter().map(|r| r.calls).sum(),
        prompt_tokens: rows.iter().map(|r| r.prompt_tokens).sum(),
        completion_tokens: rows.iter().map(|r| r.completion_tokens).sum(),
        rows,
    }))
}

#[derive(Debug, Deserialize, IntoParams)]
#[serde(deny_unknown_fields)]
#[into_params(parameter_in = Query)]
pub struct RunsParams {
    /// Only runs of this job kind.
    #[param(value_type = Option<JobKind>)]
    pub kind: Option<String>,
    /// At most this many (default 50, at most 1000).
    #[param(minimum = 1, maximum = 1000)]
    pub limit: Option<usize>,
}

/// Periodic job runs
///
/// What the periodic jobs (maintenance and the reconciler) did, newest first: as-of
/// time, duration, what they examined, changed and archived, and errors.
#[utoipa::path(get, path = "/api/admin/jobs/runs", tag = "admin", params(RunsParams),
    responses(
        (status = 200, description = "The runs", body = Vec<JobRun>),
        (status = 422, description = "An unknown kind or query parameter", body = ErrorBody),
    ))]
pub async fn job_runs(
    State(app): State<AppState>,
    tenant: Tenant,
    params: Result<Query<RunsParams>, axum::extract::rejection::QueryRejection>,
) -> ApiResult<Json<Vec<JobRun>>> {
    require_admin(&tenant)?;
    let Query(p) =
        params.map_err(|e| ApiError::Validation(FieldError::new("query", e.body_text())))?;
    if let Some(kind) = &p.kind {
        kind.parse::<JobKind>()
            .map_err(|e| ApiError::Validation(FieldError::new("kind", e.to_string())))?;
    }
    let limit = admin_limit(p.limit)?;
    Ok(Json(app.svc.runs.recent(p.kind.as_deref(), limit).await?))
}

/// How far from now a manual run's `as_of` may be (10 years).
const AS_OF_WINDOW_DAYS: i64 = 3653;

#[derive(Debug, Default, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
#[schema(example = json!({"as_of": "2026-11-01T00:00:00Z"}))]
pub struct RunBody {
    /// The job's "now" (RFC 3339), within 10 years of the server's time; default: when
    /// it runs. Back-fills pass a past time.
    #[schema(format = DateTime)]
    pub as_of: Option<String>,
}

#[derive(Debug, Serialize, ToSchema)]
pub struct RunAccepted {
    pub job_id: String,
    // Documented as a plain string, as it always was.
    #[schema(value_type = String)]
    pub kind: JobKind,
    pub as_of: Option<DateTime<Utc>>,
}

/// Run a periodic job now
///
/// Enqueues a periodic job (a maintenance job or `reconcile`) now, for an optional
/// as-of time; its run appears in `/api/admin/jobs/runs` once a worker has run it. The
/// body is optional.
#[utoipa::path(post, path = "/api/admin/jobs/{kind}/run", tag = "admin",
    request_body(content = Option<RunBody>, description = "Optional: without a body, the \
        job runs as of now"),
    params(("kind" = inline(PeriodicKind), Path, description = "A periodic job: a maintenance job or \
        `reconcile`")),
    responses(
        (status = 202, description = "Enqueued", body = RunAccepted),
        (status = 404, description = "No such job kind", body = ErrorBody),
        (status = 422, description = "Not a periodic job kind, or a bad `as_of`", body = ErrorBody),
        (status = 503, description = "The job queue is unreachable", body = ErrorBody),
    ))]
pub async fn run_job(
    State(app): State<AppState>,
    tenant: Tenant,
    Path(kind): Path<String>,
    OptionalJsonBody(body): OptionalJsonBody,
) -> ApiResult<(StatusCode, Json<RunAccepted>)> {
    require_admin(&tenant)?;
    let kind = kind
        .parse::<JobKind>()
        .map_err(|e| ApiError::NotFound(format!("no job kind: {e}")))?;
    if !PeriodicKind::kinds().any(|k| k == kind) {
        return Err(ApiError::Validation(FieldError::new(
            "kind",
            format!("{kind} is not a periodic job"),
        )));
    }
    // The body is optional: none means "now".
    let body: RunBody = match body {
        None | Some(serde_json::Value::Null) => RunBody::default(),
        Some(v) => cosmo_shared::domain::input::from_value(v)?,
    };
    let as_of = body
        .as_of
        .as_deref()
        .map(|s| {
            DateTime::parse_from_rfc3339(s)
                .map(|t| t.with_timezone(&Utc))
                .map_err(|_| {
                    ApiError::Validation(FieldError::new("as_of", "must be an RFC 3339 timestamp"))
                })
        })
        .transpose()?;
    // A back-fill reaches years back, not centuries: a far date would decay or archive
    // every tenant's memories at once.
    if let Some(at) = as_of
        && (at - app.svc.clock.now()).num_days().abs() > AS_OF_WINDOW_DAYS
    {
        return Err(ApiError::Validation(FieldError::new(
            "as_of",
            "must be within 10 years of now",
        )));
    }
    let enqueued = app
        .svc
        .queue
        .enqueue(Periodic::manual(kind, as_of))
        .await
        .map_err(|e| ApiError::Unavailable {
            message: format!("the job queue is unreachable: {e}"),
            detail: None,
        })?;
    Ok((
        StatusCode::ACCEPTED,
        Json(RunAccepted {
            job_id: enqueued.job_id().to_owned(),
            kind,
            as_of,
        }),
    ))
}

/// The queue could not answer.
pub(crate) fn queue_down(e: QueueError) -> ApiError {
    match e {
        QueueError::Unavailable(m) => ApiError::Unavailable {
            message: format!("the job queue is unreachable: {m}"),
            detail: None,
        },
        QueueError::Payload(e) => anyhow::Error::from(e).context("job queue").into(),
        QueueError::Other(e) => e.context("job queue").into(),
    }
}

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
    OptionalJsonBody(body): OptionalJsonBody,
) -> ApiResult<Json<Retried>> {
    require_admin(&tenant)?;
    let body: RetryDeadBody = match body {
        None | Some(serde_json::Value::Null) => RetryDeadBody::default(),
        Some(v) => cosmo_shared::domain::input::from_value(v)?,
    };
    let kind = body
        .kind
        .as_deref()
        .map(|k| k.parse::<JobKind>())
        .transpose()
        .map_err(|e| ApiError::Validation(FieldError::new("kind", e.to_string())))?;
    let retried = app.svc.queue.retry_dead(kind).await.map_err(queue_down)?;
    Ok(Json(Retried { retried }))
}

/// A listing's size: 1 to 1000, 50 when absent.
fn admin_limit(limit: Option<usize>) -> ApiResult<usize> {
    match limit.unwrap_or(50) {
        n @ 1..=1000 => Ok(n),
        _ => Err(ApiError::Validation(FieldError::new(
            "limit",
            "must be from 1 to 1000",
        ))),
    }
}

/// The kinds `POST /api/admin/jobs/{kind}/run` runs: the maintenance jobs and the
/// reconciler (the schema of its `kind`, listed from [`JobKind`]).
pub struct PeriodicKind;

impl PeriodicKind {
    pub fn kinds() -> impl Iterator<Item = JobKind> {
        JobKind::ALL.iter().copied().filter(|k| k.is_periodic())
    }
}

impl utoipa::PartialSchema for PeriodicKind {
    fn schema() -> utoipa::openapi::RefOr<utoipa::openapi::schema::Schema> {
        utoipa::openapi::schema::ObjectBuilder::new()
            .schema_type(utoipa::openapi::schema::Type::String)
            .enum_values(Some(Self::kinds().map(JobKind::as_str)))
            .into()
    }
}

impl ToSchema for PeriodicKind {}
