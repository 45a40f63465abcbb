//! # cosmo-queue
//!
//! The job queue: one small interface ([`JobQueue`] to enqueue and inspect, [`runtime`]
//! to run workers) over apalis 1.0 with `apalis-sqlite` (embedded) and
//! `apalis-postgres` (production).
//!
//! What it guarantees on both backends:
//! * explicit queue names (the [`JobKind`] wire name);
//! * per-kind max attempts, exponential backoff with jitter stored in the database
//!   (a failed job's `run_at` moves forward; nothing sleeps in a worker), timeout and
//!   concurrency ([`JobsConfig`]);
//! * idempotency keys with one meaning: a key is used once per kind while its job is
//!   kept (a finished job, `queue.keep_done_days`); enqueueing it again returns
//!   [`Enqueued::Duplicate`] and changes nothing;
//! * failed jobs are kept with their error (dead letter) and can be retried;
//! * a killed worker's jobs return to the queue after its missed heartbeats; a stopping
//!   worker finishes in-flight jobs or gives them back.
//!
//! Beside it, on the same database: [`db`], the relational database the queue, the
//! directory and the ledgers share (one SQLite file, or PostgreSQL), and [`job_runs`],
//! the record of what each job run did.

use async_trait::async_trait;
use chrono::{DateTime, Utc};
use serde::{Deserialize, Serialize};

pub mod config;
pub mod db;
pub mod job_runs;
pub mod lease;
pub mod postgres;
pub mod runtime;
pub mod sqlite;
pub mod status;
pub mod wake;

pub use cosmo_core::jobs::{
    Job, JobKind, JobSettings, JobState, JobStatus, JobsConfig, NewJob, PayloadError, StateCount,
    kinds, payloads,
};
pub(crate) use status::{state_case, state_condition};

use cosmo_core::domain::OrUnknown;

/// What is stored as the apalis task's arguments.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct JobEnvelope {
    pub kind: JobKind,
    pub payload: serde_json::Value,
    #[serde(default)]
    pub request_id: Option<String>,
    /// W3C `traceparent` of the span that enqueued the job, when traces are exported:
    /// the job's span becomes its child. Absent in older envelopes.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub traceparent: Option<String>,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Enqueued {
    Created {
        job_id: String,
    },
    /// A job with this kind and idempotency key already exists (in any state).
    Duplicate {
        job_id: String,
    },
}

impl Enqueued {
    pub fn job_id(&self) -> &str {
        match self {
            Self::Created { job_id } | Self::Duplicate { job_id } => job_id,
        }
    }
}

/// A job as the queue holds it.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct JobRecord {
    pub job_id: String,
    /// Unknown if another version of Cosmo enqueued it: no worker of this one runs it.
    pub kind: OrUnknown<JobKind>,
    /// apalis' status; unknown if an apalis other than 1.0 wrote it.
    pub status: OrUnknown<JobStatus>,
    pub attempts: i64,
    pub max_attempts: i64,
    pub run_at: Option<DateTime<Utc>>,
    pub done_at: Option<DateTime<Utc>>,
    pub idempotency_key: Option<String>,
    pub last_error: Option<String>,
    pub lock_by: Option<String>,
    pub payload: Option<JobEnvelope>,
}

impl JobRecord {
    /// Will a worker still run it (now or after its backoff)?
    pub fn is_live(&self) -> bool {
        match self.status {
            OrUnknown::Known(JobStatus::Pending | JobStatus::Queued | JobStatus::Running) => true,
            OrUnknown::Known(JobStatus::Failed) => self.attempts < self.max_attempts,
            OrUnknown::Known(JobStatus::Done | JobStatus::Killed) => false,
            // apalis fetches only jobs in the statuses it writes: this one never runs.
            OrUnknown::Unknown(_) => false,
        }
    }

    /// The job's state as an operator sees it.
    pub fn state(&self) -> JobState {
        JobState::of(&self.status, self.attempts, self.max_attempts)
    }
}

/// Jobs per kind and status.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct QueueCount {
    pub kind: OrUnknown<JobKind>,
    pub status: OrUnknown<JobStatus>,
    pub count: i64,
}

/// What [`JobQueue::retry`] came to.
#[derive(Debug, Clone, PartialEq)]
pub enum Retry {
    /// Back to pending; the job as it was before.
    Done(Box<JobRecord>),
    NotFound,
    /// Pending or running: there is nothing to retry.
    NotRetryable(JobState),
}

impl Retry {
    /// Why `job_id` was not retried, in words; `None` if it was.
    pub fn refusal(&self, job_id: &str) -> Option<String> {
        match self {
            Self::Done(_) => None,
            Self::NotFound => Some(format!("job {job_id} not found")),
            Self::NotRetryable(state) => Some(format!(
                "job {job_id} is {state}; only failed, dead or done jobs can be retried"
            )),
        }
    }
}

/// How many jobs are in each [`JobState`].
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, utoipa::ToSchema)]
pub struct StateTotals {
    pub pending: i64,
    pub running: i64,
    pub done: i64,
    pub failed: i64,
    pub dead: i64,
}

impl StateTotals {
    pub fn get(&self, state: JobState) -> i64 {
        match state {
            JobState::Pending => self.pending,
            JobState::Running => self.running,
            JobState::Done => self.done,
            JobState::Failed => self.failed,
            JobState::Dead => self.dead,
        }
    }

    fn add(&mut self, state: JobState, n: i64) {
        *match state {
            JobState::Pending => &mut self.pending,
            JobState::Running => &mut self.running,
            JobState::Done => &mut self.done,
            JobState::Failed => &mut self.failed,
            JobState::Dead => &mut self.dead,
        } += n;
    }
}

/// [`StateCount`]s as a table: one row per kind that has jobs, and the total.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, utoipa::ToSchema)]
pub struct JobCounts {
    /// Per job kind (only kinds with jobs).
    // By the name the queue stores: a kind this version does not know is counted too.
    pub kinds: std::collections::BTreeMap<String, StateTotals>,
    /// Every kind together.
    pub total: StateTotals,
}

impl JobCounts {
    pub fn tally(counts: &[StateCount]) -> Self {
        let mut table = Self::default();
        for c in counts {
            table
                .kinds
                .entry(c.kind.to_string())
                .or_default()
                .add(c.state, c.count);
            table.total.add(c.state, c.count);
        }
        table
    }
}

/// Which jobs [`JobQueue::list_jobs`] returns.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct JobFilter {
    pub state: Option<JobState>,
    pub kind: Option<JobKind>,
    pub limit: usize,
}

#[derive(Debug, thiserror::Error)]
pub enum QueueError {
    #[error("job queue unavailable: {0}")]
    Unavailable(String),
    /// Nothing was enqueued.
    #[error(transparent)]
    Payload(#[from] PayloadError),
    #[error(transparent)]
    Other(#[from] anyhow::Error),
}

impl From<sqlx::Error> for QueueError {
    fn from(e: sqlx::Error) -> Self {
        match e {
            sqlx::Error::PoolTimedOut | sqlx::Error::PoolClosed | sqlx::Error::Io(_) => {
                Self::Unavailable(e.to_string())
            }
            other => Self::Other(other.into()),
        }
    }
}

pub type QueueResult<T> = Result<T, QueueError>;

#[async_trait]
pub trait JobQueue: Send + Sync + std::fmt::Debug {
    fn backend(&self) -> &'static str;

    /// Creates the queue's tables (apalis' migrations); safe at every start.
    async fn migrate(&self) -> QueueResult<()>;

    async fn ping(&self) -> QueueResult<()>;

    async fn enqueue(&self, job: NewJob) -> QueueResult<Enqueued>;

    async fn job(&self, job_id: &str) -> QueueResult<Option<JobRecord>>;

    async fn job_by_key(
        &self,
        kind: JobKind,
        idempotency_key: &str,
    ) -> QueueResult<Option<JobRecord>>;

    async fn counts(&self) -> QueueResult<Vec<QueueCount>>;

    /// Jobs that exhausted their attempts or were killed, newest first.
    async fn failed_jobs(&self, limit: usize) -> QueueResult<Vec<JobRecord>>;

    /// Jobs in a state and of a kind (each optional), newest first (by when they were
    /// enqueued), at most `limit`.
    async fn list_jobs(&self, filter: &JobFilter) -> QueueResult<Vec<JobRecord>>;

    /// Jobs per kind and [`JobState`]; only pairs with jobs.
    async fn state_counts(&self) -> QueueResult<Vec<StateCount>>;

    /// Puts a failed, dead or done job back to pending with fresh attempts. False if it
    /// does not exist or is pending or running.
    async fn retry_job(&self, job_id: &str) -> QueueResult<bool>;

    /// [`JobQueue::retry_job`], saying why a job was not retried: what operators call
    /// (`cosmo jobs retry`, the admin API, the dashboard).
    async fn retry(&self, job_id: &str) -> QueueResult<Retry> {
        let Some(job) = self.job(job_id).await? else {
            return Ok(Retry::NotFound);
        };
        Ok(if self.retry_job(job_id).await? {
            Retry::Done(Box::new(job))
        } else {
            Retry::NotRetryable(job.state())
        })
    }

    /// Retries every dead job (of one kind, or all); returns how many.
    async fn retry_dead(&self, kind: Option<JobKind>) -> QueueResult<u64>;

    /// Deletes the jobs about erased Sources — `process-source` of each key and
    /// `extract-entities` of each (key, user) — and, with `user_id`, that user's
    /// extractions of any Source, in every state but running (a running one finds its
    /// Source gone and does nothing). Returns how many were deleted.
    async fn purge_about(&self, source_keys: &[String], user_id: Option<&str>) -> QueueResult<u64>;

    /// Forgets the registrations of workers silent for longer than `silent_for` (every
    /// process start registers its workers anew, under a new name): their finished jobs
    /// no longer name them, and a registration a live job still names is kept. Run
    /// leases untouched as long are deleted too (their jobs ended long ago). Returns how
    /// many registrations were forgotten.
    async fn forget_workers(&self, silent_for: std::time::Duration) -> QueueResult<u64>;

    /// Deletes at most `limit` jobs that finished (`Done`) more than `kept_for` ago,
    /// the oldest first; every other state is kept. A deleted job's idempotency key can
    /// be used again. Returns how many were deleted.
    async fn forget_done_jobs(
        &self,
        kept_for: std::time::Duration,
        limit: usize,
    ) -> QueueResult<u64>;
}

/// The queue on the configured database.
pub fn connect(db: &crate::db::Db, jobs: &JobsConfig) -> std::sync::Arc<dyn JobQueue> {
    match db {
        crate::db::Db::Sqlite(pool) => {
            std::sync::Arc::new(sqlite::SqliteQueue::new(pool.clone(), jobs.clone()))
        }
        crate::db::Db::Postgres(pool) => {
            std::sync::Arc::new(postgres::PostgresQueue::new(pool.clone(), jobs.clone()))
        }
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    #[test]
    fn envelopes_without_a_traceparent_still_decode_and_none_is_written() {
        let old = json!({"kind": "extract-entities", "payload": {"n": 1}, "request_id": "r-1"});
        let envelope: JobEnvelope = serde_json::from_value(old.clone()).unwrap();
        assert_eq!(envelope.kind, JobKind::ExtractEntities);
        assert_eq!(envelope.traceparent, None);
        assert_eq!(serde_json::to_value(&envelope).unwrap(), old);
        let traced = JobEnvelope {
            traceparent: Some("00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01".into()),
            ..envelope
        };
        let back: JobEnvelope =
            serde_json::from_value(serde_json::to_value(&traced).unwrap()).unwrap();
        assert_eq!(back, traced);
    }
}
