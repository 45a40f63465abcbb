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
use cosmo_shared::domain::raw::RawContent;
use cosmo_shared::domain::{
    ExtractionStatus, Passage, ProcessedContent, ProcessingStatus, Source, thread_key,
};

use cosmo_shared::queue::payloads::ProcessSource;
use cosmo_shared::services::Services;
use tracing::{info, warn};

use cosmo_shared::queue::JobKind;

use crate::error::{JobError, JobResult};
use crate::metering::Metered;

pub async fn run(svc: &Services, job: &ProcessSource, request_id: Option<String>) -> JobResult {
    let key = &job.entity_key;
    let Some(source) = svc.graph.source(key).await? else {
        warn!(entity_key = %key, "source no longer exists; nothing to process");
        return Ok(());
    };
    let fingerprint = svc.config.models.embedder_fingerprint();
    if source.processing_status == ProcessingStatus::Raw {
        svc.graph
            .mark_processing_started(key, svc.clock.now())
            .await?;
        let processed = process(svc, &source, fingerprint).await?;
        if !svc
            .graph
            .save_processed(key, &processed, svc.clock.now())
            .await?
        {
            warn!(entity_key = %key, "source deleted while processing");
            return Ok(());
        }
        info!(entity_key = %key, keywords = processed.keywords.len(), "source processed");
    } else if source.embedded_with.as_deref() != Some(fingerprint.as_str()) {
        let (embedding, passages) = embed(svc, &source, &source.summary, &source.content).await?;
        if !svc
            .graph
            .save_index(key, &embedding, &passages, &fingerprint, svc.clock.now())
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
        svc.graph
            .link_temporal(key, &thread, svc.clock.now())
            .await?;
    }
    // Whether just processed, re-indexed or processed earlier: make sure the owner's
    // extraction and every participant's unfinished one are queued (a participant who
    // asked before processing finished had their job return early).
    crate::request_extraction(svc, key, &source.user_id, request_id.clone())
        .await
        .map_err(|e| JobError::retry(format!("enqueueing extraction: {e:#}")))?;
    for record in svc.graph.extractions(key).await? {
        if record.user_id != source.user_id && record.status != ExtractionStatus::Extracted {
            crate::enqueue_extraction(svc, key, &record.user_id, request_id.clone())
                .await
                .map_err(|e| JobError::retry(format!("enqueueing extraction: {e:#}")))?;
        }
    }
    Ok(())
}

fn meter<'a>(svc: &'a Services, source: &'a Source) -> Metered<'a> {
    Metered {
        svc,
        kind: JobKind::ProcessSource,
        user_id: &source.user_id,
    }
}

async fn process(
    svc: &Services,
    source: &Source,
    embedded_with: String,
) -> JobResult<ProcessedContent> {
    let meter = meter(svc, source);
    let raw = RawContent::parse(source.source_type, &source.raw_content)
        .map_err(|e| JobError::permanent(format!("stored raw_content is unreadable: {e}")))?;
    let rendered = cleanup::render(&raw);
    let content = if source.source_type.is_transcript() {
        meter
            .record(svc.models.processor.clean_transcript(&rendered).await?)
            .await?
    } else {
        rendered
    };
    let facts = meter
        .record(
            svc.models
                .processor
                .describe(source.source_type, &content)
                .await?,
        )
        .await?;
    if facts.summary.trim().is_empty() {
        return Err(JobError::retry("the model returned an empty summary"));
    }
    let summary = facts.summary.trim().to_owned();
    let (embedding, passages) = embed(svc, source, &summary, &content).await?;
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

/// The summary's embedding and the content's passages with theirs, from one embedding
/// call (the summary first). A vector of another length than
/// `models.embedding_dimensions` fails the job for good.
async fn embed(
    svc: &Services,
    source: &Source,
    summary: &str,
    content: &str,
) -> JobResult<(Vec<f32>, Vec<Passage>)> {
    let passages = passages::split(content);
    let texts: Vec<String> = std::iter::once(summary.to_owned())
        .chain(passages.iter().cloned())
        .collect();
    let mut vectors = meter(svc, source)
        .record(svc.models.embedder.embed(&texts).await?)
        .await?
        .into_iter();
    let expected = svc.config.models.embedding_dimensions;
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
