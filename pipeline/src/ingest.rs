//! Phase 0, ingest: storing a new Source and queueing its processing (as
//! `POST /api/sources` and the session buffer do it), and asking for a user's
//! extraction of a Source.

use cosmo_shared::clock::Clock;
use cosmo_shared::domain::{
    ExtractionRecord, ExtractionStatus, NewSource, ProcessingStatus, Source, SourceWrite,
};
use cosmo_shared::graph::{ExtractionRecordStore, SourceStore};
use cosmo_shared::queue::JobQueue;
use cosmo_shared::queue::payloads::{ExtractEntities, ProcessSource};
use cosmo_shared::services::Services;

/// What Phase 0 uses: the graph's Sources and extraction records, the job queue and the
/// clock. Every function here takes `impl Into<Intake>`, so a caller holding the
/// process's [`Services`] passes `&services`.
#[derive(Clone, Copy)]
pub struct Intake<'a> {
    pub sources: &'a dyn SourceStore,
    pub extractions: &'a dyn ExtractionRecordStore,
    pub queue: &'a dyn JobQueue,
    pub clock: &'a dyn Clock,
}

impl<'a> From<&'a Services> for Intake<'a> {
    fn from(svc: &'a Services) -> Self {
        Self {
            sources: svc.graph.as_ref(),
            extractions: svc.graph.as_ref(),
            queue: svc.queue.as_ref(),
            clock: svc.clock.as_ref(),
        }
    }
}

/// Why [`store_source`] did not end with a Source stored and queued.
#[derive(Debug, thiserror::Error)]
pub enum StoreError {
    /// The owner already has a Source of this idempotency key, with other content.
    #[error("idempotency key already used for different content (source {0})")]
    KeyReused(String),
    /// Stored, but the job queue could not be reached: the reconciler queues it later.
    #[error("source {} stored but not enqueued: {error}", .stored.entity_key)]
    NotEnqueued {
        stored: Box<Source>,
        error: cosmo_shared::queue::QueueError,
    },
    #[error(transparent)]
    Graph(#[from] cosmo_shared::graph::GraphError),
}

/// Stores `new` (or finds the Source of its owner and idempotency key) and queues its
/// `process-source` job while it is still raw. Returns the Source and whether it was
/// already there. Safe to repeat: the entity key and the job key make a repeat a no-op,
/// and a repeat of a Source whose first enqueue failed gets its job.
pub async fn store_source<'a>(
    intake: impl Into<Intake<'a>>,
    new: &NewSource,
    request_id: Option<String>,
) -> Result<(Source, bool), StoreError> {
    let at = intake.into();
    let (source, duplicate) = match at.sources.create_source(new).await? {
        SourceWrite::Created(s) => (s, false),
        SourceWrite::Existing(s) if s.content_hash != new.content_hash => {
            return Err(StoreError::KeyReused(s.entity_key));
        }
        SourceWrite::Existing(s) => (s, true),
    };
    if source.processing_status == ProcessingStatus::Raw
        && let Err(error) = at
            .queue
            .enqueue(ProcessSource::job(&source.entity_key).request_id(request_id))
            .await
    {
        return Err(StoreError::NotEnqueued {
            stored: Box::new(source),
            error,
        });
    }
    Ok((source, duplicate))
}

/// Records that `user_id` wants `source_key` extracted and enqueues the job unless the
/// extraction is already done. Safe to repeat: the record and the job key make it a
/// no-op the second time.
pub async fn request_extraction<'a>(
    intake: impl Into<Intake<'a>>,
    source_key: &str,
    user_id: &str,
    request_id: Option<String>,
) -> anyhow::Result<ExtractionRecord> {
    let at = intake.into();
    let record = at
        .extractions
        .request_extraction(source_key, user_id, at.clock.now())
        .await?;
    if record.status != ExtractionStatus::Extracted {
        enqueue_extraction(at, source_key, user_id, request_id).await?;
    }
    Ok(record)
}

/// Asks for `user_id`'s extraction of the next `limit` team Sources they take part in
/// but do not own, whose extraction for them was never asked for or failed for good
/// (a batch, where [`request_extraction`] asks for one Source on first need). Returns
/// the Sources asked for, by key, and whether more are left.
pub async fn request_team_extractions<'a>(
    intake: impl Into<Intake<'a>>,
    user_id: &str,
    limit: usize,
    request_id: Option<String>,
) -> anyhow::Result<(Vec<String>, bool)> {
    let at = intake.into();
    let mut keys = at
        .extractions
        .unrequested_team_sources(user_id, limit.saturating_add(1))
        .await?;
    let more = keys.len() > limit;
    keys.truncate(limit);
    for key in &keys {
        request_extraction(at, key, user_id, request_id.clone()).await?;
    }
    Ok((keys, more))
}

/// Enqueues the extraction job. The pair has one job while it is kept: if it already
/// ran (it may have found the Source not yet processed) or gave up, it is put back to
/// pending; once a finished one is deleted (`queue.keep_done_days`), a new one is made.
pub async fn enqueue_extraction<'a>(
    intake: impl Into<Intake<'a>>,
    source_key: &str,
    user_id: &str,
    request_id: Option<String>,
) -> anyhow::Result<()> {
    let queue = intake.into().queue;
    let job = ExtractEntities::job(source_key, user_id).request_id(request_id);
    if let cosmo_shared::queue::Enqueued::Duplicate { job_id } = queue.enqueue(job).await?
        && let Some(existing) = queue.job(&job_id).await?
        && !existing.is_live()
    {
        queue.retry_job(&job_id).await?;
    }
    Ok(())
}
