//! Every model call a job makes goes into the usage ledger, attributed to the user and
//! the job kind, before its answer is used.

use cosmo_shared::llm::Completion;
use cosmo_shared::queue::JobKind;
use cosmo_shared::services::Services;
use cosmo_shared::telemetry::repeats;

use crate::error::{JobError, JobResult};

/// The ledger entry context for one job.
#[derive(Debug, Clone, Copy)]
pub struct Metered<'a> {
    pub svc: &'a Services,
    pub kind: JobKind,
    pub user_id: &'a str,
}

impl Metered<'_> {
    /// Records the call's usage and hands back its answer. While the ledger's database
    /// is out of reach it tries again (0.5 s, doubling to 5 s; the job's timeout bounds
    /// the wait): failing would run the job again, and make the model call again.
    pub async fn record<T>(&self, completion: Completion<T>) -> JobResult<T> {
        let mut pause = std::time::Duration::from_millis(500);
        loop {
            match self
                .svc
                .record_usage(self.kind, self.user_id, &completion.usage)
                .await
            {
                Ok(()) => return Ok(completion.value),
                Err(e) if cosmo_shared::db::is_outage(&e) => {
                    let error = format!("{e:#}");
                    if let Some(repeated) = repeats::admit("usage ledger out of reach", &error) {
                        tracing::warn!(%error, repeated,
                            "the usage ledger is out of reach; the job waits to record its model call");
                    }
                    tokio::time::sleep(pause).await;
                    pause = (pause * 2).min(std::time::Duration::from_secs(5));
                }
                Err(e) => return Err(JobError::retry(format!("recording model usage: {e:#}"))),
            }
        }
    }
}
