//! `extract-entities` (Phase 2) for one (Source, user); its steps are in
//! docs/architecture.md, "Phase 2". The models run first; everything they produce is then
//! written in one graph transaction, so a crash or retry never leaves half an extraction
//! behind.

use std::collections::{BTreeMap, BTreeSet};

use chrono::Duration;
use cosmo_shared::cleanup;
use cosmo_shared::clock::Clock;
use cosmo_shared::domain::raw::RawContent;
use cosmo_shared::domain::{
    ExtractionStatus, ExtractionWrite, NodeIdentity, ProcessingStatus, Source,
};
use cosmo_shared::graph::{
    ExtractionRecordStore, ExtractionStore, SemanticStore, SourceStore, StorylineCandidate,
    StorylineStore,
};
use cosmo_shared::llm::ExtractionContext;
use cosmo_shared::queue::payloads::ExtractEntities;
use tracing::{info, warn};

use crate::error::{JobError, JobResult};
use crate::metering::ModelCalls;
use crate::plan;

/// Extracts `job`'s Source for its user: reads the Source, the user's extraction
/// record and owner node, runs the extractor and the note-taking agent, and writes the
/// result with the Storylines it joins (those of the last `storyline_window_days`) in
/// one call.
pub async fn run<G>(
    graph: &G,
    models: &ModelCalls<'_>,
    clock: &dyn Clock,
    storyline_window_days: i64,
    job: &ExtractEntities,
) -> JobResult
where
    G: SourceStore
        + ExtractionRecordStore
        + SemanticStore
        + StorylineStore
        + ExtractionStore
        + ?Sized,
{
    let (key, user_id) = (&job.entity_key, &job.user_id);
    let Some(source) = graph.source(key).await? else {
        warn!(entity_key = %key, "source no longer exists; nothing to extract");
        return Ok(());
    };
    if !source.is_participant(user_id) {
        return Err(JobError::permanent(format!(
            "{user_id} is not a participant of source {key}"
        )));
    }
    if let Some(record) = graph.extraction(key, user_id).await?
        && record.status == ExtractionStatus::Extracted
    {
        return Ok(());
    }
    if source.processing_status == ProcessingStatus::Raw {
        // The record stays pending; process-source re-queues this job when it is done.
        info!(entity_key = %key, user_id = %user_id, "source not processed yet; extraction waits for it");
        return Ok(());
    }
    graph
        .mark_extraction_started(key, user_id, clock.now())
        .await?;

    let owner = graph.owner(user_id).await?;
    let raw = RawContent::parse(source.source_type, &source.raw_content).ok();
    let context = ExtractionContext {
        source_type: Some(source.source_type),
        owner_name: owner.as_ref().map(|o| o.name.clone()),
        speakers: raw.as_ref().map(cleanup::speakers).unwrap_or_default(),
    };
    let providers = models.providers();
    let extracted = models
        .record(
            user_id,
            providers
                .extractor
                .extract(&source.content, &context)
                .await?,
        )
        .await?;
    let kept = plan::keep(extracted);
    let actions = models
        .record(
            user_id,
            providers
                .note_taker
                .take_notes(&source.content, &kept, &context)
                .await?,
        )
        .await?;
    // A note was said when its turn was, where the transcript dates turns.
    let event_time = source.event_time();
    let said_at = |note: &str| {
        raw.as_ref()
            .map_or(event_time, |raw| raw.said_at(note, event_time))
    };
    let plan = plan::build(
        &kept,
        &actions,
        owner.as_ref().map(|o| &o.identity),
        &said_at,
    );
    if plan.skipped_actions > 0 {
        warn!(entity_key = %key, skipped = plan.skipped_actions, "agent tool calls named nothing extracted");
    }

    let anchors: Vec<NodeIdentity> = plan.nodes.iter().map(|n| n.identity.clone()).collect();
    let since = source.event_time() - Duration::days(storyline_window_days);
    let candidates = graph.storyline_candidates(user_id, &anchors, since).await?;
    let write = ExtractionWrite {
        source_key: key.clone(),
        user_id: user_id.clone(),
        event_time: source.event_time(),
        at: clock.now(),
        storylines: choose_storylines(&source, &candidates),
        nodes: plan.nodes,
        relationships: plan.relationships,
        notes: plan.notes,
        is_source_owner: source.user_id == *user_id,
    };
    let outcome = graph.write_extraction(&write).await?;
    info!(
        entity_key = %key, user_id = %user_id, nodes = outcome.node_keys.len(),
        created = outcome.nodes_created, relationships = outcome.relationships_created,
        notes = outcome.notes_added, storylines = outcome.storylines_joined, "source extracted"
    );
    Ok(())
}

/// Which Storylines the Source joins: per anchor, the only candidate; among
/// several, the most similar by embedding, else the closest in time.
pub fn choose_storylines(source: &Source, candidates: &[StorylineCandidate]) -> Vec<String> {
    let mut by_anchor: BTreeMap<&NodeIdentity, Vec<&StorylineCandidate>> = BTreeMap::new();
    for c in candidates {
        by_anchor.entry(&c.anchor).or_default().push(c);
    }
    let event = source.event_time();
    let mut chosen = BTreeSet::new();
    for options in by_anchor.values() {
        let score = |c: &&StorylineCandidate| -> (f64, i64) {
            let similarity = match (&source.embedding, &c.storyline.embedding) {
                (Some(a), Some(b)) => cosine(a, b),
                _ => 0.0,
            };
            let distance = c
                .storyline
                .last_source_at
                .map_or(i64::MAX, |t| (t - event).num_seconds().abs());
            (similarity, -distance)
        };
        if let Some(best) = options.iter().max_by(|a, b| {
            score(a)
                .partial_cmp(&score(b))
                .unwrap_or(std::cmp::Ordering::Equal)
        }) {
            chosen.insert(best.storyline.storyline_id.clone());
        }
    }
    chosen.into_iter().collect()
}

fn cosine(a: &[f32], b: &[f32]) -> f64 {
    if a.len() != b.len() || a.is_empty() {
        return 0.0;
    }
    let dot: f64 = a
        .iter()
        .zip(b)
        .map(|(x, y)| f64::from(*x) * f64::from(*y))
        .sum();
    let norm = |v: &[f32]| v.iter().map(|x| f64::from(*x).powi(2)).sum::<f64>().sqrt();
    let denom = norm(a) * norm(b);
    if denom == 0.0 { 0.0 } else { dot / denom }
}
