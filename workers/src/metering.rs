//! Every model call a job makes goes into the usage ledger, attributed to the user and
//! the job kind, before its answer is used.

use cosmo_shared::llm::Completion;
use cosmo_shared::queue::JobKind;
use cosmo_shared::services::Services;

use crate::error::{JobError, JobResult};

/// The ledger entry context for one job.
#[derive(Debug, Clone, Copy)]
pub struct Metered<'a> {
    pub svc: &'a Services,
    pub kind: JobKind,
    pub user_id: &'a str,
}

impl Metered<'_> {
    /// Records the call's usage and hands back its answer.
    pub async fn record<T>(&self, completion: Completion<T>) -> JobResult<T> {
        self.svc
            .record_usage(self.kind, self.user_id, &completion.usage)
            .await
            .map_err(|e| JobError::retry(format!("recording model usage: {e:#}")))?;
        Ok(completion.value)
    }
}
