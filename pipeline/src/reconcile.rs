//! `reconcile`: Sources stuck in `raw`/`processed` and extractions stuck
//! `pending`/`in_progress` with no live job get one. That covers an API that wrote a
//! Source but could not reach the queue, and a job lost any other way. Jobs that gave up
//! (dead letters) are left for an operator: they failed for a reason.
//!
//! It also finds Sources whose index another embedder made (an upgrade that changed the
//! offline embedder, or a change of `models.providers.embeddings` or of the embedding
//! model) and queues their `process-source` job, which re-indexes them: at most
//! `reconciler.batch_size` a run, so an installation catches up batch by batch.
//!
//! It posts the session buffer's chunks claimed at least `stuck_after_secs` ago and
//! still not stored as Sources (a crash between the append that claimed them and the
//! post, the graph out of reach then): see `crate::sessions`.
//!
//! And it forgets the queue's registrations of workers silent for a day (every process
//! start registers its workers under new names; stopped ones would pile up).

use chrono::Duration;
use cosmo_shared::config::ReconcilerConfig;
use cosmo_shared::domain::{ExtractionStatus, ProcessingStatus};
use cosmo_shared::job_runs::RunReport;
use cosmo_shared::queue::payloads::{ExtractEntities, ProcessSource};
use cosmo_shared::queue::{JobQueue, JobStatus, NewJob};
use cosmo_shared::sessions::Sessions;
use serde::Serialize;
use tracing::info;

use crate::error::{JobError, JobResult};
use crate::ingest::Intake;

/// What a reconciler run is told: its own settings, the embedder whose index is current
/// (`models`' fingerprint) and how long finished jobs are kept (`queue.keep_done_days`,
/// 0: for ever).
#[derive(Debug, Clone, Copy)]
pub struct Settings<'a> {
    pub reconciler: &'a ReconcilerConfig,
    pub embedder_fingerprint: &'a str,
    pub keep_done_days: u32,
}

impl From<ReconcileReport> for RunReport {
    fn from(r: ReconcileReport) -> Self {
        let mut out = RunReport {
            examined: (r.sources_examined + r.extractions_examined + r.stale_sources) as i64,
            changed: (r.jobs_enqueued + r.jobs_revived + r.session_chunks_posted) as i64,
            ..RunReport::default()
        };
        out.add("jobs_enqueued", r.jobs_enqueued as i64);
        out.add("jobs_revived", r.jobs_revived as i64);
        out.add("stale_sources", r.stale_sources as i64);
        out.add("sources_reindexed", r.sources_reindexed as i64);
        out.add("workers_forgotten", r.workers_forgotten as i64);
        out.add("done_jobs_forgotten", r.done_jobs_forgotten as i64);
        out.add("session_chunks_posted", r.session_chunks_posted as i64);
        out
    }
}

#[derive(Debug, Default, Clone, PartialEq, Eq, Serialize)]
pub struct ReconcileReport {
    pub sources_examined: usize,
    pub extractions_examined: usize,
    pub jobs_enqueued: usize,
    pub jobs_revived: usize,
    /// Processed Sources found with an index another embedder made (or none recorded).
    pub stale_sources: usize,
    /// Of those, the ones whose `process-source` job this run enqueued or revived (the
    /// others' job is still pending or running, or gave up); also in `jobs_*`.
    pub sources_reindexed: usize,
    /// Worker registrations silent for [`FORGET_WORKERS_AFTER`], removed.
    pub workers_forgotten: u64,
    /// Session chunks left unposted, stored as Sources by this run.
    pub session_chunks_posted: usize,
    /// Jobs that finished more than `queue.keep_done_days` ago, deleted (at most
    /// [`FORGET_DONE_PER_RUN`]).
    pub done_jobs_forgotten: u64,
}

/// How long a worker registration may be silent before the reconciler forgets it: far
/// longer than any heartbeat window or database outage, so only stopped processes'
/// workers qualify (a live worker whose registration went would fail to lock jobs).
pub const FORGET_WORKERS_AFTER: std::time::Duration = std::time::Duration::from_secs(24 * 3600);

/// Most finished jobs one run deletes, so a run stays short on a queue that kept them
/// for a long time; the next runs, minutes apart, take the rest.
pub const FORGET_DONE_PER_RUN: usize = 10_000;

/// One reconciler run: the graph's Sources and extraction records, the queue and the
/// clock come in `intake` (what storing a session's chunk needs too).
pub async fn run(
    intake: Intake<'_>,
    sessions: &Sessions,
    settings: Settings<'_>,
) -> JobResult<RunReport> {
    let (cfg, queue) = (settings.reconciler, intake.queue);
    let before = intake.clock.now() - Duration::seconds(cfg.stuck_after_secs as i64);
    let mut report = ReconcileReport::default();

    for source in intake.sources.stuck_sources(before, cfg.batch_size).await? {
        report.sources_examined += 1;
        let key = &source.entity_key;
        if source.processing_status == ProcessingStatus::Raw {
            ensure_live(queue, ProcessSource::job(key), &mut report).await?;
            continue;
        }
        // Processed, but the owner's extraction never got (or lost) its job.
        let owner = intake.extractions.extraction(key, &source.user_id).await?;
        if owner.is_some_and(|r| r.status == ExtractionStatus::Extracted) {
            continue;
        }
        if ensure_live(
            queue,
            ExtractEntities::job(key, &source.user_id),
            &mut report,
        )
        .await?
        {
            intake
                .extractions
                .request_extraction(key, &source.user_id, intake.clock.now())
                .await?;
        }
    }
    for record in intake
        .extractions
        .stuck_extractions(before, cfg.batch_size)
        .await?
    {
        report.extractions_examined += 1;
        ensure_live(
            queue,
            ExtractEntities::job(&record.source_key, &record.user_id),
            &mut report,
        )
        .await?;
    }
    // Sources indexed by another embedder: their process-source job re-indexes them.
    for source in intake
        .sources
        .stale_index(settings.embedder_fingerprint, cfg.batch_size)
        .await?
    {
        report.stale_sources += 1;
        if ensure_live(queue, ProcessSource::job(&source.entity_key), &mut report).await? {
            report.sources_reindexed += 1;
        }
    }
    report.session_chunks_posted =
        crate::sessions::post_unposted(sessions, intake, before, cfg.batch_size)
            .await
            .map_err(|e| JobError::retry(format!("session chunks: {e:#}")))?;
    report.workers_forgotten = queue.forget_workers(FORGET_WORKERS_AFTER).await?;
    let keep_done_days = settings.keep_done_days;
    if keep_done_days > 0 {
        let kept_for = std::time::Duration::from_secs(u64::from(keep_done_days) * 86_400);
        report.done_jobs_forgotten = queue
            .forget_done_jobs(kept_for, FORGET_DONE_PER_RUN)
            .await?;
    }
    if report.jobs_enqueued + report.jobs_revived + report.session_chunks_posted > 0
        || report.workers_forgotten + report.done_jobs_forgotten > 0
    {
        info!(
            ?report,
            "reconciler re-queued stuck work or forgot stopped workers or finished jobs"
        );
    }
    Ok(report.into())
}

/// Enqueues `job` unless a live job with its key exists; revives a job that finished
/// (`Done`) although its work is still outstanding. A job that gave up is left alone.
/// Returns whether a job was enqueued or revived.
async fn ensure_live(
    queue: &dyn JobQueue,
    job: NewJob,
    report: &mut ReconcileReport,
) -> JobResult<bool> {
    let key = job.idempotency_key.clone().unwrap_or_default();
    match queue.job_by_key(job.kind, &key).await? {
        None => {
            queue.enqueue(job).await?;
            report.jobs_enqueued += 1;
            Ok(true)
        }
        Some(existing) if existing.status == JobStatus::Done => {
            queue.retry_job(&existing.job_id).await?;
            report.jobs_revived += 1;
            Ok(true)
        }
        Some(_) => Ok(false),
    }
}
