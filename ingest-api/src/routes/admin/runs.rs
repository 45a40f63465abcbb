//! Periodic jobs: what they did (`GET /api/admin/jobs/runs`) and running one now
//! (`POST /api/admin/jobs/{kind}/run`), with the kinds that may be run ([`PeriodicKind`]).

use axum::Json;
use axum::extract::{Query, State};
use axum::http::StatusCode;
use chrono::{DateTime, Utc};
use cosmo_shared::domain::input::FieldError;
use cosmo_shared::job_runs::JobRun;
use cosmo_shared::queue::JobKind;
use cosmo_shared::queue::payloads::Periodic;
use serde::{Deserialize, Serialize};

use utoipa::{IntoParams, ToSchema};

use super::{admin_limit, require_admin};
use crate::AppState;
use crate::error::{ApiError, ApiResult, ErrorBody};
use crate::extract::{OptionalJsonBody, Path, Tenant};

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
    let kind = p
        .kind
        .as_deref()
        .map(str::parse::<JobKind>)
        .transpose()
        .map_err(|e| ApiError::Validation(FieldError::new("kind", e.to_string())))?;
    let limit = admin_limit(p.limit)?;
    Ok(Json(app.svc.runs.recent(kind, limit).await?))
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
    body: OptionalJsonBody,
) -> ApiResult<(StatusCode, Json<RunAccepted>)> {
    require_admin(&tenant)?;
    let kind = periodic_kind(&kind)?;
    // The body is optional: none means "now".
    let body: RunBody = body.or_default()?;
    let as_of = manual_as_of(&app, body.as_of.as_deref())?;
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

/// A periodic job's kind from the path: 404 for no job kind, 422 for a job that is not
/// periodic.
pub(super) fn periodic_kind(kind: &str) -> ApiResult<JobKind> {
    let kind = kind
        .parse::<JobKind>()
        .map_err(|e| ApiError::NotFound(format!("no job kind: {e}")))?;
    if !PeriodicKind::kinds().any(|k| k == kind) {
        return Err(ApiError::Validation(FieldError::new(
            "kind",
            format!(
                "{kind} is not a periodic job: it runs for one Source \
                 (`cosmo run-job {kind} --source <entity_key>`)"
            ),
        )));
    }
    Ok(kind)
}

/// A manual run's `as_of`: RFC 3339, within 10 years of the server's time.
pub(super) fn manual_as_of(
    app: &AppState,
    as_of: Option<&str>,
) -> ApiResult<Option<DateTime<Utc>>> {
    let as_of = as_of
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
    Ok(as_of)
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
