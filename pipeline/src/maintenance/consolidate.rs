//! `consolidate-descriptions` (nightly, before note cleanup) and `cleanup-notes`
//! (nightly 04:00).

use chrono::{DateTime, Utc};
use cosmo_shared::graph::{ConsolidationStore, GraphResult};
use cosmo_shared::job_runs::RunReport;
use cosmo_shared::llm::SummaryTask;

use super::{DryRun, ModelCalls};
use crate::error::JobResult;

/// Longest notes text fed to a relationship's notes embedding, in characters.
const NOTES_EMBEDDING_CHARS: usize = 1000;

/// Dirty nodes and relationships (most recently accessed first, capped) get a
/// description synthesised from the current one and their notes; the embedding is
/// renewed only when the text changed.
pub async fn descriptions<G: ConsolidationStore + ?Sized>(
    graph: &G,
    models: &ModelCalls<'_>,
    cap: usize,
    as_of: DateTime<Utc>,
) -> JobResult<RunReport> {
    let mut report = RunReport::default();
    for node in graph.dirty_nodes(cap).await? {
        report.examined += 1;
        let notes: Vec<String> = node.notes.iter().map(|n| n.text.clone()).collect();
        let current = Some(node.description.as_str()).filter(|d| !d.is_empty());
        let description = models
            .summarize(&node.user_id, SummaryTask::NodeDescription, current, &notes)
            .await?;
        let embedding = if description == node.description {
            None
        } else {
            let text = std::iter::once(format!("{}: {description}", node.name))
                .chain(notes)
                .collect::<Vec<_>>()
                .join("\n");
            Some(models.embed(&node.user_id, &text).await?)
        };
        graph
            .consolidate_node(&node.entity_key, &description, embedding.as_deref(), as_of)
            .await?;
        report.changed += 1;
        report.add("node", 1);
    }
    for rel in graph.dirty_relationships(cap).await? {
        report.examined += 1;
        let notes: Vec<String> = rel.notes.iter().map(|n| n.text.clone()).collect();
        let current = Some(rel.description.as_str()).filter(|d| !d.is_empty());
        let description = models
            .summarize(
                &rel.user_id,
                SummaryTask::RelationshipDescription,
                current,
                &notes,
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
            Some(models.embed(&rel.user_id, &joined).await?)
        };
        graph
            .consolidate_relationship(&rel.rel_key, &description, embedding.as_deref(), as_of)
            .await?;
        report.changed += 1;
        report.add("relationship", 1);
    }
    Ok(report)
}

/// Removes every note whose lifetime has run out, in batches.
pub async fn cleanup_notes<G: ConsolidationStore + ?Sized>(
    graph: &G,
    batch_size: usize,
    as_of: DateTime<Utc>,
) -> JobResult<RunReport> {
    let batch = batch_size.max(1);
    let mut report = RunReport::default();
    loop {
        let removed = graph.delete_expired_notes(as_of, batch).await?;
        report.changed += removed as i64;
        if removed < batch {
            break;
        }
    }
    report.examined = report.changed;
    Ok(report)
}

/// `cleanup-notes`' dry run: the notes a run to `as_of` would delete, counted, none
/// deleted.
pub async fn cleanup_notes_preview<G: ConsolidationStore + ?Sized>(
    graph: &G,
    as_of: DateTime<Utc>,
) -> GraphResult<DryRun> {
    let expired = graph.count_expired_notes(as_of).await? as i64;
    Ok(DryRun {
        as_of,
        examined: expired,
        changed: expired,
        archived: 0,
        details: Default::default(),
        archive: Vec::new(),
    })
}
