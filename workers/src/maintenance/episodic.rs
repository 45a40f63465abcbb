//! `consolidate-episodic` (nightly), seed 001 "Memory Consolidation": old Sources that
//! faded, and old Sources that keep returning to one node, become an insight noted on
//! the semantic nodes they concern (`derived_from` keeps the provenance); the Sources
//! are archived: out of default retrieval, raw content kept.

use chrono::{DateTime, Duration, Utc};
use cosmo_shared::domain::{
    LifecycleChange, LifecycleEvent, MemoryKind, MemoryLifecycle, MemoryState, NoteLifetime,
};
use cosmo_shared::graph::maintenance::EpisodicConsolidation;
use cosmo_shared::job_runs::RunReport;
use cosmo_shared::lifecycle::Reason;
use cosmo_shared::llm::SummaryTask;
use cosmo_shared::queue::JobKind;
use cosmo_shared::services::Services;

use crate::error::JobResult;
use crate::metering::Metered;

pub async fn run(svc: &Services, as_of: DateTime<Utc>) -> JobResult<RunReport> {
    let m = &svc.config.maintenance;
    let older_than = as_of - Duration::days(m.episodic_min_age_days);
    let kind = JobKind::ConsolidateEpisodic;
    let mut report = RunReport::default();

    for cluster in svc
        .graph
        .source_clusters(older_than, m.episodic_cluster_min_sources, m.episodic_limit)
        .await?
    {
        report.examined += cluster.sources.len() as i64;
        let summaries: Vec<String> = cluster.sources.iter().map(|s| s.summary.clone()).collect();
        let meter = Metered {
            svc,
            kind,
            user_id: &cluster.user_id,
        };
        let insight = meter
            .record(
                svc.models
                    .summarizer
                    .summarize(SummaryTask::Insight, None, &summaries)
                    .await?,
            )
            .await?;
        svc.graph
            .consolidate_sources(&EpisodicConsolidation {
                entity_key: cluster.entity_key.clone(),
                user_id: cluster.user_id.clone(),
                insight,
                lifetime: NoteLifetime::Year,
                source_keys: cluster
                    .sources
                    .iter()
                    .map(|s| s.entity_key.clone())
                    .collect(),
                at: as_of,
            })
            .await?;
        report.archived += cluster.sources.len() as i64;
        report.add("clusters", 1);
    }

    for (source, mentioned) in svc
        .graph
        .faded_sources(older_than, m.episodic_salience_below, m.episodic_limit)
        .await?
    {
        report.examined += 1;
        if mentioned.is_empty() {
            // Nothing semantic to carry the memory: archive it as it is.
            archive(svc, &source.entity_key, &source.user_id, as_of).await?;
        } else {
            let meter = Metered {
                svc,
                kind,
                user_id: &source.user_id,
            };
            let insight = meter
                .record(
                    svc.models
                        .summarizer
                        .summarize(
                            SummaryTask::Insight,
                            None,
                            std::slice::from_ref(&source.summary),
                        )
                        .await?,
                )
                .await?;
            for entity_key in mentioned {
                svc.graph
                    .consolidate_sources(&EpisodicConsolidation {
                        entity_key,
                        user_id: source.user_id.clone(),
                        insight: insight.clone(),
                        lifetime: NoteLifetime::Year,
                        source_keys: vec![source.entity_key.clone()],
                        at: as_of,
                    })
                    .await?;
            }
        }
        report.archived += 1;
        report.add("faded", 1);
    }
    report.changed = report.archived;
    Ok(report)
}

async fn archive(svc: &Services, key: &str, user_id: &str, at: DateTime<Utc>) -> JobResult<()> {
    let Some(source) = svc.graph.source(key).await? else {
        return Ok(());
    };
    if source.lifecycle.state == MemoryState::Archived {
        return Ok(());
    }
    let memory = MemoryLifecycle {
        kind: MemoryKind::Source,
        key: key.to_owned(),
        user_id: user_id.to_owned(),
        lifecycle: source.lifecycle.clone(),
    };
    let mut lifecycle = source.lifecycle;
    lifecycle.state = MemoryState::Archived;
    lifecycle.updated_at = at;
    let mut event = LifecycleEvent::system(&memory, MemoryState::Archived, Reason::Decayed, at);
    event.reason = "consolidated".into();
    svc.graph
        .apply_lifecycle(&[LifecycleChange {
            kind: MemoryKind::Source,
            key: key.to_owned(),
            lifecycle,
            event: Some(event),
        }])
        .await?;
    Ok(())
}
