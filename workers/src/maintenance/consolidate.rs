//! `consolidate-descriptions` (nightly, before note cleanup) and `cleanup-notes`
//! (nightly 04:00).

use chrono::{DateTime, Utc};
use cosmo_shared::job_runs::RunReport;
use cosmo_shared::llm::SummaryTask;
use cosmo_shared::queue::JobKind;
use cosmo_shared::services::Services;

use super::embed;
use crate::error::JobResult;
use crate::metering::Metered;

/// Longest notes text fed to a relationship's notes embedding, in characters.
const NOTES_EMBEDDING_CHARS: usize = 1000;

/// Dirty nodes and relationships (most recently accessed first, capped) get a
/// description synthesised from the current one and their notes; the embedding is
/// renewed only when the text changed.
pub async fn descriptions(svc: &Services, as_of: DateTime<Utc>) -> JobResult<RunReport> {
    let cap = svc.config.maintenance.consolidation_cap;
    let kind = JobKind::ConsolidateDescriptions;
    let mut report = RunReport::default();
    for node in svc.graph.dirty_nodes(cap).await? {
        report.examined += 1;
        let notes: Vec<String> = node.notes.iter().map(|n| n.text.clone()).collect();
        let current = Some(node.description.as_str()).filter(|d| !d.is_empty());
        let meter = Metered {
            svc,
            kind,
            user_id: &node.user_id,
        };
        let description = meter
            .record(
                svc.models
                    .summarizer
                    .summarize(SummaryTask::NodeDescription, current, &notes)
                    .await?,
            )
            .await?;
        let embedding = if description == node.description {
            None
        } else {
            let text = std::iter::once(format!("{}: {description}", node.name))
                .chain(notes)
                .collect::<Vec<_>>()
                .join("\n");
            Some(embed(svc, kind, &node.user_id, &text).await?)
        };
        svc.graph
            .consolidate_node(&node.entity_key, &description, embedding.as_deref(), as_of)
            .await?;
        report.changed += 1;
        report.add("node", 1);
    }
    for rel in svc.graph.dirty_relationships(cap).await? {
        report.examined += 1;
        let notes: Vec<String> = rel.notes.iter().map(|n| n.text.clone()).collect();
        let current = Some(rel.description.as_str()).filter(|d| !d.is_empty());
        let meter = Metered {
            svc,
            kind,
            user_id: &rel.user_id,
        };
        let description = meter
            .record(
                svc.models
                    .summarizer
                    .summarize(SummaryTask::RelationshipDescription, current, &notes)
                    .await?,
            )
            .await?;
        let embedding = if description == rel.description || notes.is_empty() {
            None
        } else {
            let joined: String = notes
                .join(" ")
                .chars()
                .take(NOTES_EMBEDDING_CHARS)
                .collect();
            Some(embed(svc, kind, &rel.user_id, &joined).await?)
        };
        svc.graph
            .consolidate_relationship(&rel.rel_key, &description, embedding.as_deref(), as_of)
            .await?;
        report.changed += 1;
        report.add("relationship", 1);
    }
    Ok(report)
}

/// Removes every note whose lifetime has run out, in batches.
pub async fn cleanup_notes(svc: &Services, as_of: DateTime<Utc>) -> JobResult<RunReport> {
    let batch = svc.config.maintenance.batch_size.max(1);
    let mut report = RunReport::default();
    loop {
        let removed = svc.graph.delete_expired_notes(as_of, batch).await?;
        report.changed += removed as i64;
        if removed < batch {
            break;
        }
    }
    report.examined = report.changed;
    Ok(report)
}
