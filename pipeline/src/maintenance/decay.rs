//! `decay` (nightly): every memory of every kind, page by page, through
//! [`cosmo_shared::lifecycle::decay`]. Decay runs to the as-of time from the later of the
//! last decay and the last access, so running nightly, weekly or twice a night gives
//! the same salience; a second run for the same as-of time writes nothing, which is also
//! what makes an interrupted run safe to repeat. Each page is one store call and one
//! write transaction ([`DecayStore::decay_page`]): set-based statements doing the pure
//! function's arithmetic, on both stores.
//!
//! [`DecayStore::decay_page`]: cosmo_shared::graph::DecayStore::decay_page

use chrono::{DateTime, Utc};
use cosmo_shared::domain::MemoryKind;
use cosmo_shared::graph::DecayStore;
use cosmo_shared::job_runs::RunReport;
use cosmo_shared::lifecycle::LifecycleParams;

use crate::error::JobResult;

/// Decays every memory to `as_of`, `batch_size` memories a page.
pub async fn run<G: DecayStore + ?Sized>(
    graph: &G,
    params: &LifecycleParams,
    batch_size: usize,
    as_of: DateTime<Utc>,
) -> JobResult<RunReport> {
    let batch = batch_size.max(1);
    let mut report = RunReport::default();
    for kind in MemoryKind::ALL.iter().copied() {
        let mut after: Option<String> = None;
        loop {
            let page = graph
                .decay_page(kind, after.as_deref(), batch, as_of, params)
                .await?;
            report.examined += page.examined as i64;
            report.changed += page.changed as i64;
            report.archived += page.archived as i64;
            report.add(kind.as_str(), page.changed as i64);
            if page.examined < batch {
                break;
            }
            after = page.last_key;
        }
    }
    Ok(report)
}
