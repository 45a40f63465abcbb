//! Steps the API and the workers share: asking for a user's extraction of a Source.

use crate::domain::{ExtractionRecord, ExtractionStatus};
use crate::queue::payloads::ExtractEntities;
use crate::services::Services;

/// Records that `user_id` wants `source_key` extracted and enqueues the job unless the
/// extraction is already done. Safe to repeat: the record and the job key make it a
/// no-op the second time.
pub async fn request_extraction(
    svc: &Services,
    source_key: &str,
    user_id: &str,
    request_id: Option<String>,
) -> anyhow::Result<ExtractionRecord> {
    let record = svc
        .graph
        .request_extraction(source_key, user_id, svc.clock.now())
        .await?;
    if record.status != ExtractionStatus::Extracted {
        enqueue_extraction(svc, source_key, user_id, request_id).await?;
    }
    Ok(record)
}

/// Enqueues the extraction job. The pair has one job, ever: if it already ran (it may
/// have found the Source not yet processed) or gave up, it is put back to pending.
pub async fn enqueue_extraction(
    svc: &Services,
    source_key: &str,
    user_id: &str,
    request_id: Option<String>,
) -> anyhow::Result<()> {
    let job = ExtractEntities::job(source_key, user_id).request_id(request_id);
    if let crate::queue::Enqueued::Duplicate { job_id } = svc.queue.enqueue(job).await?
        && let Some(existing) = svc.queue.job(&job_id).await?
        && !existing.is_live()
    {
        svc.queue.retry_job(&job_id).await?;
    }
    Ok(())
}
