//! A periodic job's dry run (`POST /api/admin/jobs/{kind}/dry-run`): what `decay`,
//! `consolidate-episodic` or `cleanup-notes`, the jobs that take memory away, would do
//! if they ran now or as of a given time, read in this request without writing anything.

use axum::Json;
use axum::extract::State;
use cosmo_pipeline::maintenance::{self, DRY_RUN_KINDS, DRY_RUN_LISTED, DryRun};
use cosmo_shared::domain::input::FieldError;
use serde::Deserialize;
use utoipa::ToSchema;

use super::require_admin;
use super::runs::{manual_as_of, periodic_kind};
use crate::AppState;
use crate::error::{ApiError, ApiResult, ErrorBody};
use crate::extract::{OptionalJsonBody, Path, Tenant};

#[derive(Debug, Default, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
#[schema(example = json!({"as_of": "2027-03-01T00:00:00Z", "limit": 20}))]
pub struct DryRunBody {
    /// The run's "now" (RFC 3339), within 10 years of the server's time; default: now.
    #[schema(format = DateTime)]
    pub as_of: Option<String>,
    /// How many of the memories `decay` or `consolidate-episodic` would archive to list
    /// (0 to 1000, default 100); the counts cover every memory whatever this is.
    #[serde(
        default,
        deserialize_with = "cosmo_shared::domain::input::whole_number"
    )]
    #[schema(minimum = 0, maximum = 1000)]
    pub limit: Option<usize>,
}

/// The jobs that have a dry run ([`DRY_RUN_KINDS`]).
#[derive(Deserialize, ToSchema)]
#[serde(rename_all = "kebab-case")]
#[allow(dead_code)]
enum DryRunKind {
    Decay,
    ConsolidateEpisodic,
    CleanupNotes,
}

/// Dry-run a periodic job
///
/// What `decay`, `consolidate-episodic` or `cleanup-notes` would do if it ran now (or
/// as of `as_of`), without writing anything: the numbers its run record would hold
/// (what it would look at, change and archive; `decay` per kind too) and, for `decay`
/// and `consolidate-episodic`, the memories it would archive, each as the lifecycle
/// event it would log; for `cleanup-notes`, how many notes it would delete. Counted
/// over every tenant's memory in this request, so a store too large to walk within the
/// request timeout answers 503; `cosmo run-job <kind> --dry-run` has no such limit.
/// Only these three have a dry run: they are the jobs that take memory away.
#[utoipa::path(post, path = "/api/admin/jobs/{kind}/dry-run", tag = "admin",
    request_body(content = Option<DryRunBody>, description = "Optional: without a body, \
        as of now, listing up to 100 memories"),
    params(("kind" = inline(DryRunKind), Path, description = "`decay`, `consolidate-episodic` or `cleanup-notes`")),
    responses(
        (status = 200, description = "What the run would do", body = DryRun),
        (status = 404, description = "No such job kind", body = ErrorBody),
        (status = 422, description = "A job without a dry run, a bad `as_of` or `limit`", body = ErrorBody),
        (status = 503, description = "The graph store is unreachable, or the walk took \
            longer than the request timeout", body = ErrorBody),
    ))]
pub async fn dry_run(
    State(app): State<AppState>,
    tenant: Tenant,
    Path(kind): Path<String>,
    body: OptionalJsonBody,
) -> ApiResult<Json<DryRun>> {
    require_admin(&tenant)?;
    let kind = periodic_kind(&kind)?;
    let no_dry_run =
        || ApiError::Validation(FieldError::new("kind", maintenance::no_dry_run(kind)));
    if !DRY_RUN_KINDS.contains(&kind) {
        return Err(no_dry_run());
    }
    let body: DryRunBody = body.or_default()?;
    let as_of = manual_as_of(&app, body.as_of.as_deref())?.unwrap_or_else(|| app.svc.clock.now());
    let listed = match body.limit.unwrap_or(DRY_RUN_LISTED) {
        n @ 0..=1000 => n,
        _ => {
            return Err(ApiError::Validation(FieldError::new(
                "limit",
                "must be from 0 to 1000",
            )));
        }
    };
    let preview = maintenance::dry_run(&app.svc, kind, as_of, listed).await?;
    preview.map(Json).ok_or_else(no_dry_run)
}
