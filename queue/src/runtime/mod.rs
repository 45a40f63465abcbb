//! Running workers: one apalis worker per job kind this process serves, under one
//! `Monitor` that restarts a worker whose backend failed and, on shutdown, lets
//! in-flight jobs finish (or hands them back) within the shutdown timeout.
//!
//! apalis 1.0 pitfalls handled here (see `docs/queue.md`):
//! * the worker-side payload is `serde_json::Value`, decoded by us: an undecodable
//!   payload kills that job instead of crash-looping the worker;
//! * `batch_size(1)`: a larger batch stalls heartbeats while tasks wait, and other
//!   workers then run them twice;
//! * retries back off by moving the job's `run_at` before failing it (apalis would
//!   retry at once); permanent failures end as `Killed` through `AbortError`;
//! * timeouts and panics are caught inside the handler (apalis' own timeout and
//!   catch-panic leave the job `Running`);
//! * worker names are unique per process start and restart;
//! * a job handed out again while its first run still runs (after an outage, every
//!   worker's heartbeat looks stale) waits for that run instead of running twice
//!   ([`super::lease`]).

mod attempt;
mod hold;
mod restart;

use std::future::Future;
use std::sync::Arc;
use std::time::Duration;

use apalis::prelude::*;
use async_trait::async_trait;

use self::attempt::handle;
use self::restart::gate;
use super::lease::Leases;
use super::{JobEnvelope, JobKind, JobSettings, JobsConfig, NewJob, QueueError};
use crate::config::QueueConfig;
use crate::db::Db;

/// A job as a handler sees it.
#[derive(Debug, Clone, PartialEq)]
pub struct JobContext {
    pub job_id: String,
    pub kind: JobKind,
    /// 1-based; includes attempts lost to crashed workers.
    pub attempt: u32,
    pub max_attempts: u32,
    pub envelope: JobEnvelope,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum JobOutcome {
    Done,
    /// Try again after the kind's backoff (if attempts remain).
    Retry(String),
    /// Give up now; the job is kept as failed.
    Fail(String),
}

#[async_trait]
pub trait JobHandler: Send + Sync + std::fmt::Debug {
    async fn handle(&self, job: &JobContext) -> JobOutcome;

    /// Called after every failed attempt (including timeouts and panics).
    async fn failed(&self, job: &JobContext, message: &str, final_attempt: bool);
}

/// Which kinds this process runs, and how.
#[derive(Debug, Clone)]
pub struct WorkerOptions {
    pub kinds: Vec<JobKind>,
    /// Prefix of worker names (e.g. the host's role); made unique per process.
    pub name: String,
    pub queue: QueueConfig,
    pub jobs: JobsConfig,
    pub shutdown_timeout: Duration,
}

/// The apalis task for a new job (args are the JSON envelope's bytes).
pub(crate) fn build_task(
    job: &NewJob,
    settings: &JobSettings,
) -> Result<(String, Task<Vec<u8>>), QueueError> {
    let envelope = JobEnvelope {
        kind: job.kind,
        payload: job.payload().cloned().map_err(Clone::clone)?,
        request_id: job.request_id.clone(),
        traceparent: cosmo_telemetry::current_traceparent(),
    };
    let args = serde_json::to_vec(&envelope).map_err(anyhow::Error::from)?;
    let id = ulid::Ulid::generate();
    let mut builder = TaskBuilder::new(args)
        .task_id(TaskId::from_ulid(id))
        .max_attempts(settings.max_attempts as usize);
    if let Some(at) = job.run_at {
        builder = builder.run_at_timestamp(at.timestamp().max(0) as u64);
    }
    if let Some(key) = &job.idempotency_key {
        builder = builder.idempotency_key(key);
    }
    Ok((id.to_string(), builder.build()))
}

/// What the apalis handler needs: our handler, the kind's policy, and a way to move a
/// failed job's `run_at`.
#[derive(Clone)]
struct Ctx {
    handler: Arc<dyn JobHandler>,
    kind: JobKind,
    settings: JobSettings,
    db: Db,
    leases: Leases,
    /// How often a running job refreshes its lease (the heartbeat interval).
    beat: Duration,
}

/// The same worker on either backend.
macro_rules! worker {
    ($name:expr, $backend:expr, $ctx:expr, $concurrency:expr) => {
        WorkerBuilder::new($name)
            .backend($backend)
            .data($ctx)
            .concurrency($concurrency)
            .parallelize(tokio::spawn)
            .build(handle)
    };
}

/// Runs workers for `opts.kinds` until `shutdown` resolves.
pub async fn run_workers(
    db: Db,
    handler: Arc<dyn JobHandler>,
    opts: WorkerOptions,
    shutdown: impl Future<Output = ()> + Send + 'static,
) -> anyhow::Result<()> {
    let boot = ulid::Ulid::generate().to_string();
    let host = std::fs::read_to_string("/etc/hostname")
        .map(|h| h.trim().to_owned())
        .unwrap_or_else(|_| "host".into());
    let mut monitor = Monitor::new();
    for kind in opts.kinds.clone() {
        let settings = opts.jobs.get(kind).clone();
        let q = opts.queue.clone();
        let ctx = Ctx {
            handler: handler.clone(),
            kind,
            settings: settings.clone(),
            db: db.clone(),
            leases: Leases::for_queue(db.clone(), &q),
            beat: Duration::from_secs(q.heartbeat_secs),
        };
        let (prefix, host, boot) = (opts.name.clone(), host.clone(), boot.clone());
        let name = move |restarts: usize| {
            format!(
                "{prefix}/{kind}@{host}:{}:{boot}:r{restarts}",
                std::process::id()
            )
        };
        let heartbeat = Duration::from_secs(q.heartbeat_secs);
        // Pipeline kinds are latency-sensitive; periodic ones are not, and each LISTEN
        // holds a database connection, so only pipeline kinds listen.
        let pipeline = matches!(kind, JobKind::ProcessSource | JobKind::ExtractEntities);
        let interval = Duration::from_millis(if pipeline {
            q.poll_interval_ms
        } else {
            q.periodic_poll_interval_ms
        });
        match &db {
            Db::Sqlite(pool) => {
                let (pool, db) = (pool.clone(), db.clone());
                monitor = monitor.register(move |restarts| {
                    let config = apalis_sqlite::Config::default()
                        .queue(kind.queue_name())
                        .batch_size(1)
                        .heartbeat_interval(heartbeat)
                        .missed_heartbeats(q.missed_heartbeats);
                    // An enqueue in this process wakes the worker at once; the interval
                    // catches jobs of other processes, retries and delayed jobs.
                    let strategy = Strategy::new()
                        .stream(super::wake::listen(kind.queue_name()))
                        .interval(interval);
                    let backend = apalis_sqlite::SqliteStorage::<serde_json::Value>::new(&pool)
                        .with_config(config)
                        .poll_with_strategy(strategy)
                        .before_start(gate(db.clone(), restarts));
                    worker!(name(restarts), backend, ctx.clone(), settings.concurrency)
                });
            }
            Db::Postgres(pool) => {
                let (pool, db) = (pool.clone(), db.clone());
                monitor = monitor.register(move |restarts| {
                    let config = apalis_postgres::Config::default()
                        .queue(kind.queue_name())
                        .batch_size(1)
                        .heartbeat_interval(heartbeat)
                        .missed_heartbeats(q.missed_heartbeats);
                    // NOTIFY wakes the worker for new jobs; the interval catches retries
                    // and delayed jobs, which are updates, not inserts.
                    let strategy = if pipeline {
                        Strategy::new()
                            .stream(apalis_postgres::Pubsub::new(
                                pool.clone(),
                                kind.queue_name().to_owned(),
                            ))
                            .interval(interval.max(Duration::from_millis(500)))
                    } else {
                        Strategy::new().interval(interval)
                    };
                    let backend = apalis_postgres::PostgresStorage::<serde_json::Value>::new(&pool)
                        .with_config(config)
                        .poll_with_strategy(strategy)
                        .before_start(gate(db.clone(), restarts));
                    worker!(name(restarts), backend, ctx.clone(), settings.concurrency)
                });
            }
        }
    }
    monitor
        .should_restart(|_, _| true)
        .shutdown_timeout(opts.shutdown_timeout)
        .run_with_signal(async move {
            shutdown.await;
            Ok(())
        })
        .await?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::PayloadError;
    use crate::payloads::Periodic;

    #[test]
    fn a_payload_refused_for_its_kind_fails_before_the_database() {
        // Both queues build the task before they touch the database.
        let wrong = Periodic::manual(JobKind::ProcessSource, None);
        let settings = JobsConfig::default();
        assert!(matches!(
            build_task(&wrong, settings.get(wrong.kind)),
            Err(QueueError::Payload(PayloadError::WrongKind { .. }))
        ));
    }
}
