//! `process-source` (Phase 1): type-specific cleanup, then summary + keywords + tags in
//! one structured model call, embeddings of the summary and of the content's passages
//! (one call), the in-place update, the Source's `temporal` links in its thread, and
//! the owner's extraction (plus any extraction a participant asked for meanwhile).
//!
//! A Source already processed whose index another embedder made (its fingerprint is
//! not the configured one, or it has none: processed by an earlier version) is
//! re-indexed instead: its stored content split into passages, its stored summary and
//! the passages embedded in one call, and `save_index`. No cleanup, no summary call.

use cosmo_shared::cleanup::{self, passages};
use cosmo_shared::config::ModelsConfig;
use cosmo_shared::domain::raw::RawContent;
use cosmo_shared::domain::{
    ExtractionStatus, Passage, ProcessedContent, ProcessingStatus, Source, thread_key,
};
use cosmo_shared::graph::LinkStore;
use cosmo_shared::queue::payloads::ProcessSource;
use tracing::{info, warn};

use crate::error::{JobError, JobResult};
use crate::ingest::Intake;
use crate::metering::ModelCalls;

/// Processes `job`'s Source with `models` (a `process-source` job's, configured by
/// `settings`), writes it and asks for the extractions it is now ready for through
/// `intake`, and places it in its thread through `links`.
pub async fn run(
    intake: Intake<'_>,
    links: &dyn LinkStore,
    models: &ModelCalls<'_>,
    settings: &ModelsConfig,
    job: &ProcessSource,
    request_id: Option<String>,
) -> JobResult {
    let (key, clock, sources) = (&job.entity_key, intake.clock, intake.sources);
    let Some(source) = sources.source(key).await? else {
        warn!(entity_key = %key, "source no longer exists; nothing to process");
        return Ok(());
    };
    let fingerprint = settings.embedder_fingerprint();
    let calls = SourceCalls {
        models,
        dimensions: settings.embedding_dimensions,
        source: &source,
    };
    if source.processing_status == ProcessingStatus::Raw {
        sources.mark_processing_started(key, clock.now()).await?;
        let processed = process(&calls, fingerprint).await?;
        if !sources.save_processed(key, &processed, clock.now()).await? {
            warn!(entity_key = %key, "source deleted while processing");
            return Ok(());
        }
        info!(entity_key = %key, keywords = processed.keywords.len(), "source processed");
    } else if source.embedded_with.as_deref() != Some(fingerprint.as_str()) {
        let (embedding, passages) = calls.embed(&source.summary, &source.content).await?;
        if !sources
            .save_index(key, &embedding, &passages, &fingerprint, clock.now())
            .await?
        {
            warn!(entity_key = %key, "source deleted while re-indexing");
            return Ok(());
        }
        info!(entity_key = %key, passages = passages.len(), embedded_with = %fingerprint,
            previous = source.embedded_with.as_deref().unwrap_or("none"), "source re-indexed");
    }
    // Its place in its thread (idempotent: a retry or a re-run finds it placed).
    if let Some(thread) = thread_key(&source) {
        links.link_temporal(key, &thread, clock.now()).await?;
    }
    // Whether just processed, re-indexed or processed earlier: make sure the owner's
    // extraction and every participant's unfinished one are queued (a participant who
    // asked before processing finished had their job return early).
    crate::request_extraction(intake, key, &source.user_id, request_id.clone())
        .await
        .map_err(|e| JobError::retry(format!("enqueueing extraction: {e:#}")))?;
    for record in intake.extractions.extractions(key).await? {
        if record.user_id != source.user_id && record.status != ExtractionStatus::Extracted {
            crate::enqueue_extraction(intake, key, &record.user_id, request_id.clone())
                .await
                .map_err(|e| JobError::retry(format!("enqueueing extraction: {e:#}")))?;
        }
    }
    Ok(())
}

/// The model calls of one Source, metered to its owner.
struct SourceCalls<'a> {
    models: &'a ModelCalls<'a>,
    /// `models.embedding_dimensions`: every vector must have this length.
    dimensions: usize,
    source: &'a Source,
}

async fn process(at: &SourceCalls<'_>, embedded_with: String) -> JobResult<ProcessedContent> {
    let (source, user_id) = (at.source, at.source.user_id.as_str());
    let processor = &at.models.providers().processor;
    let raw = RawContent::parse(source.source_type, &source.raw_content)
        .map_err(|e| JobError::permanent(format!("stored raw_content is unreadable: {e}")))?;
    let rendered = cleanup::render(&raw);
    let content = if source.source_type.is_transcript() {
        at.models
            .record(user_id, processor.clean_transcript(&rendered).await?)
            .await?
    } else {
        rendered
    };
    let facts = at
        .models
        .record(
            user_id,
            processor.describe(source.source_type, &content).await?,
        )
        .await?;
    if facts.summary.trim().is_empty() {
        return Err(JobError::retry("the model returned an empty summary"));
    }
    let summary = facts.summary.trim().to_owned();
    let (embedding, passages) = at.embed(&summary, &content).await?;
    Ok(ProcessedContent {
        content,
        summary,
        keywords: facts.keywords.into_iter().take(10).collect(),
        tags: facts.tags.into_iter().take(5).collect(),
        embedding,
        passages,
        embedded_with,
    })
}

impl SourceCalls<'_> {
    /// The summary's embedding and the content's passages with theirs, from one embedding
    /// call (the summary first). A vector of another length than
    /// `models.embedding_dimensions` fails the job for good.
    async fn embed(&self, summary: &str, content: &str) -> JobResult<(Vec<f32>, Vec<Passage>)> {
        let passages = passages::split(content);
        let texts: Vec<String> = std::iter::once(summary.to_owned())
            .chain(passages.iter().cloned())
            .collect();
        let completion = self.models.providers().embedder.embed(&texts).await?;
        let mut vectors = self
            .models
            .record(&self.source.user_id, completion)
            .await?
            .into_iter();
        let expected = self.dimensions;
        let mut next = || {
            let v = vectors.next().unwrap_or_default();
            if v.len() == expected {
                Ok(v)
            } else {
                Err(JobError::permanent(format!(
                    "embedding has {} dimensions, models.embedding_dimensions is {expected}",
                    v.len()
                )))
            }
        };
        let embedding = next()?;
        let passages = passages
            .into_iter()
            .map(|text| {
                Ok(Passage {
                    embedding: next()?,
                    text,
                })
            })
            .collect::<JobResult<Vec<_>>>()?;
        Ok((embedding, passages))
    }
}
