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

use std::future::Future;
use std::sync::Arc;
use std::time::{Duration, Instant};

use apalis::prelude::*;
use async_trait::async_trait;
use futures::FutureExt;

use super::lease::{Claim, Leases};
use super::{JobEnvelope, JobKind, JobSettings, JobsConfig, NewJob, QueueError};
use crate::config::QueueConfig;
use crate::db::Db;
use crate::metrics::{self, JobEnd};

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
        payload: job.payload.clone()?,
        request_id: job.request_id.clone(),
        traceparent: crate::telemetry::current_traceparent(),
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

/// Task id, attempt and attempt budget of the running task.
#[derive(Debug, Clone)]
struct TaskMeta {
    id: String,
    attempt: usize,
    max_attempts: usize,
}

impl<Args: Sync> FromRequest<Task<Args>> for TaskMeta {
    type Error = MissingDataError;

    async fn from_request(t: &Task<Args>) -> Result<Self, Self::Error> {
        Ok(Self {
            id: t
                .task_id()
                .map(ToString::to_string)
                .ok_or_else(|| MissingDataError::NotFound("TaskId".into()))?,
            attempt: t.attempt(),
            max_attempts: t.max_attempts().unwrap_or(1),
        })
    }
}

async fn handle(
    args: serde_json::Value,
    meta: TaskMeta,
    ctx: Data<Ctx>,
) -> Result<(), BoxDynError> {
    let holder = ulid::Ulid::generate().to_string();
    match take_lease(&ctx, &meta.id, &holder).await {
        Taken::Held => {}
        Taken::Finished => {
            metrics::job_already_finished(ctx.kind);
            tracing::info!(job_id = %meta.id, kind = %ctx.kind,
                "job already finished by an earlier run (its acknowledgement was lost); not run again");
            return Ok(());
        }
        Taken::Busy => {
            let delay = ctx.settings.backoff(meta.attempt as u32, 0.0);
            if let Err(e) = postpone(&ctx.db, &meta.id, delay).await {
                tracing::warn!(job_id = %meta.id, error = %e, "could not schedule the retry; it runs at once");
            }
            return Err("another run of this job held it for the whole job timeout".into());
        }
    }
    let result = run(args, &meta, &ctx, &holder).await;
    // The lease says how the run ended: finished (a later run of the job ends without
    // running) or released (the next attempt takes it afresh).
    let settled = match &result {
        Ok(()) => settle("finish", || ctx.leases.finish(&meta.id, &holder)).await,
        Err(_) => settle("release", || ctx.leases.release(&meta.id, &holder)).await,
    };
    if !settled {
        tracing::warn!(job_id = %meta.id,
            "could not record the end of the run on its lease: a later run of the job waits for it to fall silent");
    }
    result
}

/// What [`take_lease`] came to.
enum Taken {
    Held,
    Finished,
    /// Held by another run for the whole job timeout.
    Busy,
}

/// Takes the job's lease, waiting (asking again every second, through database errors)
/// while another run holds it, at most the job's timeout.
async fn take_lease(ctx: &Ctx, job_id: &str, holder: &str) -> Taken {
    let deadline = Instant::now() + ctx.settings.timeout();
    let mut said = false;
    loop {
        match ctx.leases.claim(job_id, holder).await {
            Ok(Claim::Run) => return Taken::Held,
            Ok(Claim::Finished) => return Taken::Finished,
            Ok(Claim::Wait) if !said => {
                said = true;
                tracing::info!(%job_id, kind = %ctx.kind,
                    "job handed out again while another run holds it; waiting for that run");
            }
            Ok(Claim::Wait) => {}
            Err(e) if !said => {
                said = true;
                tracing::warn!(%job_id, error = %e, "could not take the job's lease; trying again");
            }
            Err(_) => {}
        }
        if Instant::now() >= deadline {
            return Taken::Busy;
        }
        // The holder's silence is measured on the database's clock, not by these polls:
        // asking again each second (or heartbeat, if shorter) costs one small query and
        // lets a transient error (a busy pool) cost a second, not a heartbeat.
        tokio::time::sleep(ctx.beat.min(Duration::from_secs(1))).await;
    }
}

/// Refreshes the lease every heartbeat; returns only if another run took it over.
async fn keep_lease(ctx: &Ctx, job_id: &str, holder: &str) {
    loop {
        tokio::time::sleep(ctx.beat).await;
        // A failed refresh (an outage) is tried again next beat.
        if let Ok(false) = ctx.leases.refresh(job_id, holder).await {
            return;
        }
    }
}

/// How long a finished run keeps trying to write its end on the lease while the
/// database is out of reach. Until it does, the job's acknowledgement cannot be written
/// either, and the job is handed out again when the database returns; the run that gets
/// it waits for this write instead of running the job again.
const SETTLE_FOR: Duration = Duration::from_secs(600);

/// Writes the end of a run on its lease, trying again (twice a second, so it lands
/// before any waiting run's grace ends) while the database is out of reach.
async fn settle<F, Fut>(what: &str, write: F) -> bool
where
    F: Fn() -> Fut,
    Fut: Future<Output = sqlx::Result<()>>,
{
    let deadline = Instant::now() + SETTLE_FOR;
    loop {
        match write().await {
            Ok(()) => return true,
            Err(e) if Instant::now() >= deadline => {
                tracing::warn!(error = %e, "could not {what} the job's lease");
                return false;
            }
            Err(_) => tokio::time::sleep(Duration::from_millis(500)).await,
        }
    }
}

/// One run of a job whose lease this run holds.
async fn run(
    args: serde_json::Value,
    meta: &TaskMeta,
    ctx: &Ctx,
    holder: &str,
) -> Result<(), BoxDynError> {
    // Counted here, where timeouts, panics and the retry decision are known.
    let started = Instant::now();
    metrics::job_started(ctx.kind);
    let envelope: JobEnvelope = match serde_json::from_value(args) {
        Ok(e) => e,
        Err(e) => {
            metrics::job_ended(ctx.kind, JobEnd::Failed, started.elapsed());
            return Err(AbortError::new(format!("undecodable job payload: {e}")).into());
        }
    };
    let job = JobContext {
        job_id: meta.id.clone(),
        kind: ctx.kind,
        attempt: meta.attempt as u32,
        max_attempts: meta.max_attempts as u32,
        envelope,
    };
    let run = tokio::time::timeout(ctx.settings.timeout(), ctx.handler.handle(&job));
    let guarded = async {
        tokio::select! {
            ran = run => Some(ran),
            () = keep_lease(ctx, &meta.id, holder) => None,
        }
    };
    let outcome = match std::panic::AssertUnwindSafe(guarded).catch_unwind().await {
        Ok(Some(Ok(outcome))) => outcome,
        Ok(Some(Err(_))) => {
            JobOutcome::Retry(format!("timed out after {} s", ctx.settings.timeout_secs))
        }
        Ok(None) => {
            // Silent for longer than the takeover time while the database answered
            // others: another run has the job now, and its outcome is the job's.
            metrics::job_ended(ctx.kind, JobEnd::Retried, started.elapsed());
            tracing::warn!(job_id = %meta.id, kind = %ctx.kind,
                "another run took this job over; this run stopped");
            return Err("another run took this job over".into());
        }
        Err(panic) => JobOutcome::Retry(format!("job panicked: {}", panic_message(&panic))),
    };
    let end = match &outcome {
        JobOutcome::Done => JobEnd::Succeeded,
        JobOutcome::Retry(_) if meta.attempt < meta.max_attempts => JobEnd::Retried,
        JobOutcome::Retry(_) | JobOutcome::Fail(_) => JobEnd::Failed,
    };
    metrics::job_ended(ctx.kind, end, started.elapsed());
    match outcome {
        JobOutcome::Done => Ok(()),
        JobOutcome::Fail(message) => {
            ctx.handler.failed(&job, &message, true).await;
            Err(AbortError::new(message).into())
        }
        JobOutcome::Retry(message) => {
            let final_attempt = meta.attempt >= meta.max_attempts;
            if !final_attempt {
                let delay = ctx
                    .settings
                    .backoff(job.attempt, rand::random::<f64>() * 2.0 - 1.0);
                if let Err(e) = postpone(&ctx.db, &meta.id, delay).await {
                    tracing::warn!(job_id = %meta.id, error = %e, "could not schedule the retry; it runs at once");
                }
            }
            ctx.handler.failed(&job, &message, final_attempt).await;
            Err(message.into())
        }
    }
}

fn panic_message(panic: &Box<dyn std::any::Any + Send>) -> String {
    panic
        .downcast_ref::<&str>()
        .map(|s| (*s).to_owned())
        .or_else(|| panic.downcast_ref::<String>().cloned())
        .unwrap_or_else(|| "unknown panic".to_owned())
}

/// Moves a job's `run_at` forward; the failure acknowledgement leaves it untouched, and
/// fetching skips jobs whose `run_at` is in the future.
async fn postpone(db: &Db, job_id: &str, delay: Duration) -> sqlx::Result<()> {
    match db {
        Db::Sqlite(pool) => {
            let at = (chrono::Utc::now() + delay).timestamp() + 1; // whole seconds, rounded up
            sqlx::query("UPDATE Jobs SET run_at = $1 WHERE id = $2")
                .bind(at)
                .bind(job_id)
                .execute(pool)
                .await?;
        }
        Db::Postgres(pool) => {
            sqlx::query(
                "UPDATE apalis.jobs SET run_at = now() + make_interval(secs => $1) WHERE id = $2",
            )
            .bind(delay.as_secs_f64())
            .bind(job_id)
            .execute(pool)
            .await?;
        }
    }
    Ok(())
}

/// What a restarted worker does before it registers again: wait until the database
/// answers. A worker stops when its heartbeat or fetch fails (an outage), and the
/// `Monitor` restarts it at once; without the wait it would fail again at once, many
/// times a second, each time logging its error, until the database returns.
fn gate<B, E>(
    db: Db,
    restarts: usize,
) -> impl Fn(&mut B) -> futures::future::BoxFuture<'static, Result<(), E>> + Send + Sync + 'static
where
    E: Send + 'static,
{
    move |_| {
        let db = db.clone();
        Box::pin(async move {
            if restarts > 0 {
                wait_for_database(&db).await;
            }
            Ok(())
        })
    }
}

/// Returns once `db` answers, trying every 0.5 s, doubling to 5 s.
async fn wait_for_database(db: &Db) {
    let mut pause = Duration::from_millis(500);
    loop {
        match db.ping().await {
            Ok(()) => return,
            Err(e) => {
                let error = format!("{e:#}");
                if let Some(repeated) =
                    crate::telemetry::repeats::admit("worker waits for the database", &error)
                {
                    tracing::warn!(%error, repeated,
                        "the queue's database is out of reach; workers start again once it answers");
                }
                tokio::time::sleep(pause).await;
                pause = (pause * 2).min(Duration::from_secs(5));
            }
        }
    }
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
