//! Operator endpoints; admin keys only: `GET /api/admin/usage` sums the usage ledger by
//! tenant, user and job kind over a time range; `GET /api/admin/jobs/runs` lists what
//! periodic jobs did; `POST /api/admin/jobs/{kind}/run` runs one now (optionally for a
//! past or future as-of time), and `POST /api/admin/jobs/{kind}/dry-run` says what a
//! `decay` or `cleanup-notes` run would do, writing nothing. The queue itself:
//! `GET /api/admin/jobs` (by state and kind), `GET /api/admin/jobs/counts`,
//! `GET /api/admin/jobs/{job_id}`, `POST /api/admin/jobs/{job_id}/retry` and
//! `POST /api/admin/jobs/retry` (every dead job).
//!
//! Split by what the endpoints are about: the usage ledger (`usage.rs`), periodic job
//! runs (`runs.rs`) and dry runs (`dry_run.rs`), the queue's jobs (`jobs.rs`) and
//! putting jobs back to pending (`retry.rs`).

mod dry_run;
mod jobs;
mod retry;
mod runs;
mod usage;

use cosmo_shared::domain::input::FieldError;
use cosmo_shared::queue::QueueError;

use crate::error::{ApiError, ApiResult};
use crate::extract::Tenant;

// Glob re-exports: with each handler they carry the `__path_*` type `#[utoipa::path]`
// defines beside it, which `openapi.rs` names as `routes::admin::<handler>`.
pub use self::dry_run::*;
pub use self::jobs::*;
pub use self::retry::*;
pub use self::runs::*;
pub use self::usage::*;

pub(crate) fn require_admin(tenant: &Tenant) -> ApiResult<()> {
    if tenant.is_admin {
        Ok(())
    } else {
        Err(ApiError::Forbidden(
            "this endpoint needs an admin API key".into(),
        ))
    }
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
