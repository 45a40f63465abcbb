//! `GET /api/admin/usage`: the usage ledger summed by tenant, user and job kind over a
//! time range.

use axum::Json;
use axum::extract::{Query, State};
use chrono::{DateTime, Duration, Utc};
use cosmo_shared::domain::input::FieldError;
use cosmo_shared::usage::UsageSum;
use serde::{Deserialize, Serialize};

use utoipa::{IntoParams, ToSchema};

use super::require_admin;
use crate::AppState;
use crate::error::{ApiError, ApiResult, ErrorBody};
use crate::extract::Tenant;

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
