//! `decay` (nightly): every memory of every kind, page by page, through
//! [`cosmo_shared::lifecycle::decay`]. Decay runs to the as-of time from the later of the
//! last decay and the last access, so running nightly, weekly or twice a night gives
//! the same salience; a second run for the same as-of time writes nothing, which is also
//! what makes an interrupted run safe to repeat. Each page is one store call and one
//! write transaction ([`DecayStore::decay_page`]): set-based statements doing the pure
//! function's arithmetic, on both stores.
//!
//! [`preview`] is its dry run: what a run to a given time would change and archive,
//! read without writing anything.
//!
//! [`DecayStore::decay_page`]: cosmo_shared::graph::DecayStore::decay_page

use chrono::{DateTime, Utc};
use cosmo_shared::domain::MemoryKind;
use cosmo_shared::graph::{DecayStore, GraphResult, LifecycleStore, to_stored_precision};
use cosmo_shared::job_runs::RunReport;
use cosmo_shared::lifecycle::{LifecycleParams, decay_change};

use super::DryRun;

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

/// Decay's dry run: walks every memory as [`run`] does, decides each one's change with
/// the same function the stores' statements are held to ([`decay_change`]), and writes
/// nothing. The counts are those a run to the same `as_of` would record, as long as no
/// memory is accessed, pinned or written in between; `list` caps the memories listed
/// in [`DryRun::archive`], not the walk.
pub async fn preview<G: LifecycleStore + ?Sized>(
    graph: &G,
    params: &LifecycleParams,
    batch_size: usize,
    as_of: DateTime<Utc>,
    list: usize,
) -> GraphResult<DryRun> {
    let batch = batch_size.max(1);
    // Times are compared as the stores keep them (see `to_stored_precision`).
    let at = to_stored_precision(as_of);
    let mut report = RunReport::default();
    let mut archive = Vec::new();
    for kind in MemoryKind::ALL.iter().copied() {
        let mut after: Option<String> = None;
        loop {
            let page = graph.lifecycle_page(kind, after.as_deref(), batch).await?;
            let changes: Vec<_> = page
                .iter()
                .filter_map(|m| decay_change(m, at, params))
                .collect();
            report.examined += page.len() as i64;
            report.changed += changes.len() as i64;
            report.add(kind.as_str(), changes.len() as i64);
            for event in changes.into_iter().filter_map(|c| c.event) {
                report.archived += 1;
                if archive.len() < list {
                    archive.push(event);
                }
            }
            if page.len() < batch {
                break;
            }
            after = page.last().map(|m| m.key.clone());
        }
    }
    Ok(DryRun {
        as_of,
        examined: report.examined,
        changed: report.changed,
        archived: report.archived,
        details: report.details,
        archive,
    })
}
