//! Operator endpoints; admin keys only: `GET /api/admin/usage` sums the usage ledger by
//! tenant, user and job kind over a time range; `GET /api/admin/jobs/runs` lists what
//! periodic jobs did; `POST /api/admin/jobs/{kind}/run` runs one now (optionally for a
//! past or future as-of time).

use axum::Json;
use axum::extract::{Path, Query, State};
use axum::http::StatusCode;
use chrono::{DateTime, Duration, Utc};
use cosmo_shared::domain::input::FieldError;
use cosmo_shared::job_runs::JobRun;
use cosmo_shared::queue::JobKind;
use cosmo_shared::queue::payloads::Periodic;
use cosmo_shared::usage::UsageSum;
use serde::{Deserialize, Serialize};

use crate::AppState;
use crate::error::{ApiError, ApiResult};
use crate::extract::{OptionalJsonBody, Tenant};

fn require_admin(tenant: &Tenant) -> ApiResult<()> {
    if tenant.is_admin {
        Ok(())
    } else {
        Err(ApiError::Forbidden(
            "this endpoint needs an admin API key".into(),
        ))
    }
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct UsageParams {
    /// RFC 3339; default 30 days before `to`.
    pub from: Option<String>,
    /// RFC 3339, exclusive; default now.
    pub to: Option<String>,
    /// Only this tenant.
    pub tenant_id: Option<String>,
}

#[derive(Debug, Serialize)]
pub struct UsageReport {
    pub from: DateTime<Utc>,
    pub to: DateTime<Utc>,
    /// One row per (tenant, user, job kind).
    pub rows: Vec<UsageSum>,
    pub calls: i64,
    pub prompt_tokens: i64,
    pub completion_tokens: i64,
}

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

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RunsParams {
    /// Only runs of this job kind.
    pub kind: Option<String>,
    /// At most this many (default 50, at most 1000).
    pub limit: Option<usize>,
}

/// `GET /api/admin/jobs/runs`: what the periodic jobs did, newest first.
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
    let limit = p.limit.unwrap_or(50).clamp(1, 1000);
    Ok(Json(app.svc.runs.recent(p.kind.as_deref(), limit).await?))
}

#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RunBody {
    /// The job's "now" (RFC 3339); default: when it runs. Back-fills pass a past time.
    pub as_of: Option<String>,
}

#[derive(Debug, Serialize)]
pub struct RunAccepted {
    pub job_id: String,
    pub kind: String,
    pub as_of: Option<DateTime<Utc>>,
}

/// `POST /api/admin/jobs/{kind}/run`: enqueues a periodic job now, for an optional as-of
/// time; its run appears in `/api/admin/jobs/runs` when a worker has run it.
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
    if !kind.is_maintenance() && kind != JobKind::Reconcile {
        return Err(ApiError::Validation(FieldError::new(
            "kind",
            format!("{kind} is not a periodic job"),
        )));
    }
    // The body is optional: none means "now".
    let body: RunBody = match body {
        None => RunBody::default(),
        Some(v) => serde_json::from_value(v)
            .map_err(|e| ApiError::Validation(FieldError::new("body", e.to_string())))?,
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
            kind: kind.to_string(),
            as_of,
        }),
    ))
}
