//! `decay` (nightly): every memory of every kind, page by page, through
//! [`cosmo_shared::lifecycle::decay`]. Decay runs to the as-of time from the later of the
//! last decay and the last access, so running nightly, weekly or twice a night gives
//! the same salience; a second run for the same as-of time writes nothing, which is also
//! what makes an interrupted run safe to repeat.

use chrono::{DateTime, Utc};
use cosmo_shared::domain::{LifecycleChange, LifecycleEvent, MemoryKind};
use cosmo_shared::job_runs::RunReport;
use cosmo_shared::lifecycle;
use cosmo_shared::services::Services;

use crate::error::JobResult;

pub async fn run(svc: &Services, as_of: DateTime<Utc>) -> JobResult<RunReport> {
    let params = svc.config.lifecycle;
    let batch = svc.config.maintenance.batch_size.max(1);
    let mut report = RunReport::default();
    for kind in MemoryKind::ALL.iter().copied() {
        let mut after: Option<String> = None;
        loop {
            let page = svc
                .graph
                .lifecycle_page(kind, after.as_deref(), batch)
                .await?;
            let Some(last) = page.last() else { break };
            after = Some(last.key.clone());
            report.examined += page.len() as i64;
            // Decided again inside the store's write transaction, from the lifecycle as
            // it is then: an access or a pin since the page was read is not lost.
            let keys: Vec<String> = page.iter().map(|m| m.key.clone()).collect();
            let changes = svc
                .graph
                .update_lifecycles(kind, &keys, &|m| {
                    let decayed = lifecycle::decay(&m.lifecycle, kind.class(), as_of, &params)?;
                    let event = decayed
                        .transition
                        .map(|t| LifecycleEvent::system(m, t.to, t.reason, as_of));
                    Some(LifecycleChange {
                        kind,
                        key: m.key.clone(),
                        lifecycle: decayed.lifecycle,
                        event,
                    })
                })
                .await?;
            report.changed += changes.len() as i64;
            let archived = changes.iter().filter(|c| c.event.is_some()).count() as i64;
            report.archived += archived;
            report.add(kind.as_str(), changes.len() as i64);
            if page.len() < batch {
                break;
            }
        }
    }
    Ok(report)
}
