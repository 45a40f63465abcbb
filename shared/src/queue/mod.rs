//! The job queue: one small interface ([`JobQueue`] to enqueue and inspect, [`runtime`]
//! to run workers) over apalis 1.0 with `apalis-sqlite` (embedded) and
//! `apalis-postgres` (production).
//!
//! What it guarantees on both backends:
//! * explicit queue names (the [`JobKind`] wire name);
//! * per-kind max attempts, exponential backoff with jitter stored in the database
//!   (a failed job's `run_at` moves forward; nothing sleeps in a worker), timeout and
//!   concurrency ([`JobsConfig`]);
//! * idempotency keys with one meaning: a key is used once per kind, ever; enqueueing it
//!   again returns [`Enqueued::Duplicate`] and changes nothing;
//! * failed jobs are kept with their error (dead letter) and can be retried;
//! * a killed worker's jobs return to the queue after its missed heartbeats; a stopping
//!   worker finishes in-flight jobs or gives them back.

use async_trait::async_trait;
use chrono::{DateTime, Utc};
use serde::{Deserialize, Serialize};

pub mod kinds;
pub mod payloads;
pub mod postgres;
pub mod runtime;
pub mod sqlite;

pub use kinds::{JobKind, JobSettings, JobsConfig};

/// A job to enqueue.
#[derive(Debug, Clone, PartialEq)]
pub struct NewJob {
    pub kind: JobKind,
    pub payload: serde_json::Value,
    /// Unique per kind, forever: a second job with the same key is not created.
    pub idempotency_key: Option<String>,
    /// Not before this time (now if unset).
    pub run_at: Option<DateTime<Utc>>,
    /// The API request that caused this job, carried into the worker's logs.
    pub request_id: Option<String>,
}

impl NewJob {
    pub fn new(kind: JobKind, payload: impl Serialize) -> Self {
        Self {
            kind,
            payload: serde_json::to_value(payload).unwrap_or_default(),
            idempotency_key: None,
            run_at: None,
            request_id: None,
        }
    }

    pub fn key(mut self, key: impl Into<String>) -> Self {
        self.idempotency_key = Some(key.into());
        self
    }

    pub fn request_id(mut self, request_id: Option<String>) -> Self {
        self.request_id = request_id;
        self
    }

    pub fn run_at(mut self, at: DateTime<Utc>) -> Self {
        self.run_at = Some(at);
        self
    }
}

/// What is stored as the apalis task's arguments.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct JobEnvelope {
    pub kind: JobKind,
    pub payload: serde_json::Value,
    #[serde(default)]
    pub request_id: Option<String>,
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
    pub kind: String,
    /// apalis' status: `Pending`, `Queued`, `Running`, `Done`, `Failed`, `Killed`.
    pub status: String,
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
        match self.status.as_str() {
            "Pending" | "Queued" | "Running" => true,
            "Failed" => self.attempts < self.max_attempts,
            _ => false,
        }
    }
}

/// Jobs per kind and status.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct QueueCount {
    pub kind: String,
    pub status: String,
    pub count: i64,
}

#[derive(Debug, thiserror::Error)]
pub enum QueueError {
    #[error("job queue unavailable: {0}")]
    Unavailable(String),
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

    /// Puts a failed job back to pending with fresh attempts. False if it was not failed.
    async fn retry_job(&self, job_id: &str) -> QueueResult<bool>;

    /// Deletes the jobs about erased Sources — `process-source` of each key and
    /// `extract-entities` of each (key, user) — and, with `user_id`, that user's
    /// extractions of any Source, in every state but running (a running one finds its
    /// Source gone and does nothing). Returns how many were deleted.
    async fn purge_about(&self, source_keys: &[String], user_id: Option<&str>) -> QueueResult<u64>;
}

/// The queue on the configured database.
pub fn connect(db: &crate::db::Db, config: &crate::config::Config) -> std::sync::Arc<dyn JobQueue> {
    match db {
        crate::db::Db::Sqlite(pool) => {
            std::sync::Arc::new(sqlite::SqliteQueue::new(pool.clone(), config.jobs.clone()))
        }
        crate::db::Db::Postgres(pool) => std::sync::Arc::new(postgres::PostgresQueue::new(
            pool.clone(),
            config.jobs.clone(),
        )),
    }
}
