//! A run's hold on its job's lease ([`crate::lease`]): taken before the job runs
//! (waiting while another run holds it), kept by a heartbeat while it runs, and its end
//! written when the run ends, through database outages.

use std::future::Future;
use std::time::{Duration, Instant};

use super::Ctx;
use crate::lease::Claim;

/// What [`take_lease`] came to.
pub(super) enum Taken {
    Held,
    Finished,
    /// Held by another run for the whole job timeout.
    Busy,
}

/// Takes the job's lease, waiting (asking again every second, through database errors)
/// while another run holds it, at most the job's timeout.
pub(super) async fn take_lease(ctx: &Ctx, job_id: &str, holder: &str) -> Taken {
    let deadline = Instant::now() + ctx.settings.timeout();
    let mut said = false;
    loop {
        match ctx.leases.claim(job_id, holder).await {
            Ok(Claim::Run) => return Taken::Held,
            Ok(Claim::Finished) => return Taken::Finished,
            Ok(Claim::Wait) if !said => {
                said = true;
                tracing::info!(%job_id, kind = %ctx.kind,
                    "job handed out again while another run holds it; waiting for that run");
            }
            Ok(Claim::Wait) => {}
            Err(e) if !said => {
                said = true;
                tracing::warn!(%job_id, error = %e, "could not take the job's lease; trying again");
            }
            Err(_) => {}
        }
        if Instant::now() >= deadline {
            return Taken::Busy;
        }
        // The holder's silence is measured on the database's clock, not by these polls:
        // asking again each second (or heartbeat, if shorter) costs one small query and
        // lets a transient error (a busy pool) cost a second, not a heartbeat.
        tokio::time::sleep(ctx.beat.min(Duration::from_secs(1))).await;
    }
}

/// Refreshes the lease every heartbeat; returns only if another run took it over.
pub(super) async fn keep_lease(ctx: &Ctx, job_id: &str, holder: &str) {
    loop {
        tokio::time::sleep(ctx.beat).await;
        // A failed refresh (an outage) is tried again next beat.
        if let Ok(false) = ctx.leases.refresh(job_id, holder).await {
            return;
        }
    }
}

/// How long a finished run keeps trying to write its end on the lease while the
/// database is out of reach. Until it does, the job's acknowledgement cannot be written
/// either, and the job is handed out again when the database returns; the run that gets
/// it waits for this write instead of running the job again.
const SETTLE_FOR: Duration = Duration::from_secs(600);

/// Writes the end of a run on its lease, trying again (twice a second, so it lands
/// before any waiting run's grace ends) while the database is out of reach.
pub(super) async fn settle<F, Fut>(what: &str, write: F) -> bool
where
    F: Fn() -> Fut,
    Fut: Future<Output = sqlx::Result<()>>,
{
    let deadline = Instant::now() + SETTLE_FOR;
    loop {
        match write().await {
            Ok(()) => return true,
            Err(e) if Instant::now() >= deadline => {
                tracing::warn!(error = %e, "could not {what} the job's lease");
                return false;
            }
            Err(_) => tokio::time::sleep(Duration::from_millis(500)).await,
        }
    }
}
