//! `consolidate-episodic` (nightly): old Sources that faded, and old Sources that keep
//! returning to one node, become an insight noted on the semantic nodes they concern
//! (`derived_from` keeps the provenance); the Sources are archived: out of default
//! retrieval, raw content kept.
//!
//! Three rules keep it from archiving a history wholesale (see [`ClusterRules`]):
//! "old" holds for both the event time and the time Cosmo received the Source, so a
//! back-filled history is not consolidated the night it arrives; a node nearly every
//! Source of the user mentions (the other speaker of a conversation history) is a
//! shared anchor and makes no cluster; and the run record counts each Source once,
//! however many clusters it is in.

use std::collections::BTreeSet;

use chrono::{DateTime, Duration, Utc};
use cosmo_shared::config::MaintenanceConfig;
use cosmo_shared::domain::{Actor, LifecycleEvent, MemoryKind, MemoryState, NoteLifetime};
use cosmo_shared::graph::{
    ClusterRules, EpisodicConsolidation, EpisodicStore, GraphResult, SemanticStore, SourceCluster,
    SourceStore, to_stored_precision,
};
use cosmo_shared::job_runs::RunReport;
use cosmo_shared::llm::SummaryTask;
use cosmo_shared::llm::time::{date, ground};

use super::{DryRun, ModelCalls};
use crate::error::JobResult;

/// An insight is what is left of the Sources it replaced: it does not expire (its node
/// still decays as any memory does, and the insight keeps standing for its Sources).
const INSIGHT_LIFETIME: NoteLifetime = NoteLifetime::Forever;

/// Consolidates for `as_of`. The report counts Sources: `examined`, the distinct
/// Sources of the clusters and the faded ones; `archived` (and `changed`), those this
/// run archived, each once. `details`: `clusters` and `faded` consolidated.
pub async fn run<G: EpisodicStore + SemanticStore + ?Sized>(
    graph: &G,
    models: &ModelCalls<'_>,
    m: &MaintenanceConfig,
    as_of: DateTime<Utc>,
) -> JobResult<RunReport> {
    let (older_than, rules) = rules(m, as_of);
    let mut report = RunReport::default();
    let mut examined: BTreeSet<String> = BTreeSet::new();

    // The clusters are judged once, as the run starts, so the outcome does not depend
    // on their order: a Source in several gets a `derived_from` link (and a share of the
    // insight) from each of its nodes, and is archived by the first.
    for cluster in graph.source_clusters(&rules, m.episodic_limit).await? {
        examined.extend(cluster.sources.iter().map(|s| s.entity_key.clone()));
        let summaries = about_the_node(graph, &cluster).await?;
        let insight = models
            .summarize(&cluster.user_id, SummaryTask::Insight, None, &summaries)
            .await?;
        let archived = graph
            .consolidate_sources(&EpisodicConsolidation {
                entity_key: cluster.entity_key.clone(),
                user_id: cluster.user_id.clone(),
                insight,
                lifetime: INSIGHT_LIFETIME,
                source_keys: cluster
                    .sources
                    .iter()
                    .map(|s| s.entity_key.clone())
                    .collect(),
                at: as_of,
            })
            .await?;
        report.archived += archived as i64;
        report.add("clusters", 1);
    }

    // Read after the clusters: what they archived is no longer a faded Source.
    for (source, mentioned) in graph
        .faded_sources(older_than, m.episodic_salience_below, m.episodic_limit)
        .await?
    {
        examined.insert(source.entity_key.clone());
        // A Source linked to no node has nothing semantic to carry what it held: it
        // stays (decay archives it once its salience is spent), so consolidation never
        // makes a memory unreachable.
        let mut archived = false;
        for entity_key in mentioned {
            let cluster = SourceCluster {
                entity_key,
                user_id: source.user_id.clone(),
                sources: vec![source.clone()],
            };
            let summaries = about_the_node(graph, &cluster).await?;
            let insight = models
                .summarize(&source.user_id, SummaryTask::Insight, None, &summaries)
                .await?;
            archived |= graph
                .consolidate_sources(&EpisodicConsolidation {
                    entity_key: cluster.entity_key,
                    user_id: source.user_id.clone(),
                    insight,
                    lifetime: INSIGHT_LIFETIME,
                    source_keys: vec![source.entity_key.clone()],
                    at: as_of,
                })
                .await?
                > 0;
        }
        if archived {
            report.archived += 1;
            report.add("faded", 1);
        }
    }
    report.examined = examined.len() as i64;
    report.changed = report.archived;
    Ok(report)
}

/// Sources older than the returned time may consolidate; the rules of a cluster.
fn rules(m: &MaintenanceConfig, as_of: DateTime<Utc>) -> (DateTime<Utc>, ClusterRules) {
    let older_than = as_of - Duration::days(m.episodic_min_age_days);
    let rules = ClusterRules {
        older_than,
        min_sources: m.episodic_cluster_min_sources,
        anchor_share: m.episodic_anchor_share,
        anchor_min_sources: m.episodic_anchor_min_sources,
    };
    (older_than, rules)
}

/// What a run for `as_of` would do, read without writing or asking a model: the
/// Sources of the clusters, then the faded Sources outside them (as the run reads them
/// after archiving the clusters'), counted as its record would count them, and the
/// first `list` of them (oldest first, clusters first) as the `consolidated` event
/// the run would log for each.
pub async fn preview<G: EpisodicStore + SourceStore + ?Sized>(
    graph: &G,
    m: &MaintenanceConfig,
    as_of: DateTime<Utc>,
    list: usize,
) -> GraphResult<DryRun> {
    let (older_than, rules) = rules(m, as_of);
    let clusters = graph.source_clusters(&rules, m.episodic_limit).await?;
    // In the order the run archives them, each once.
    let mut seen: BTreeSet<&str> = BTreeSet::new();
    let mut archived: Vec<&str> = Vec::new();
    for s in clusters.iter().flat_map(|c| &c.sources) {
        if seen.insert(&s.entity_key) {
            archived.push(&s.entity_key);
        }
    }
    let in_clusters = archived.len();
    // The run reads the faded Sources once the clusters' are archived: the same limit,
    // over what is left.
    let faded = graph
        .faded_sources(
            older_than,
            m.episodic_salience_below,
            m.episodic_limit.saturating_add(in_clusters),
        )
        .await?;
    let faded: Vec<String> = faded
        .into_iter()
        .map(|(s, _)| s.entity_key)
        .filter(|k| !seen.contains(k.as_str()))
        .take(m.episodic_limit)
        .collect();
    archived.extend(faded.iter().map(String::as_str));
    let mut report = RunReport {
        archived: archived.len() as i64,
        ..Default::default()
    };
    // As the run counts them: only what it consolidated.
    for (what, n) in [("clusters", clusters.len()), ("faded", faded.len())] {
        if n > 0 {
            report.add(what, n as i64);
        }
    }
    let mut archive = Vec::new();
    for key in archived.iter().take(list) {
        // Read again: the brief of a cluster does not hold the state it leaves.
        if let Some(source) = graph.source(key).await? {
            archive.push(LifecycleEvent {
                memory_kind: MemoryKind::Source,
                memory_key: source.entity_key,
                user_id: source.user_id,
                previous_state: source.lifecycle.state,
                new_state: MemoryState::Archived,
                reason: "consolidated".into(),
                actor: Actor::System,
                // As the store logs it.
                at: to_stored_precision(as_of),
            });
        }
    }
    Ok(DryRun {
        as_of,
        examined: report.archived,
        changed: report.archived,
        archived: report.archived,
        details: report.details,
        archive,
    })
}

/// What the cluster's Sources said about its node, the insight's input: one line per
/// Source, dated by when it happened (`On 8 May 2023: …`), holding the notes an
/// extraction took from it about the node (their relative times grounded), else the
/// Source's summary. A long Source's summary may not mention the node at all, and an
/// insight that does not could not be found by what it replaced.
async fn about_the_node<G: SemanticStore + ?Sized>(
    graph: &G,
    cluster: &SourceCluster,
) -> JobResult<Vec<String>> {
    let notes = graph
        .node(&cluster.entity_key)
        .await?
        .map(|n| n.notes)
        .unwrap_or_default();
    Ok(cluster
        .sources
        .iter()
        .map(|s| {
            let said: Vec<String> = notes
                .iter()
                .filter(|n| n.source_id.as_deref() == Some(s.entity_key.as_str()))
                .map(|n| ground(&n.text, n.said_at))
                .collect();
            let body = if said.is_empty() {
                ground(&s.summary, s.event_time)
            } else {
                said.join(" ")
            };
            format!("On {}: {body}", date(s.event_time.date_naive()))
        })
        .collect())
}
