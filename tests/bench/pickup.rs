//! `cosmo-bench pickup`: how long a job waits between being enqueued by one process and
//! being started by an idle `workers` process (`--jobs process-source`, default
//! settings) on the same queue.
//!
//! The job is the `process-source` of a tiny Source the bench wrote to the graph. The
//! bench reads the clock just before `enqueue`; the job's first write stamps the Source's
//! `processing_started_at` with the worker's clock (same machine, microseconds). Their
//! difference is the pickup latency: the enqueue's insert and commit, the wake-up
//! (LISTEN/NOTIFY on PostgreSQL, the next poll on SQLite), fetch and lock, and the
//! handler's first read. Jobs go one at a time: the next is enqueued only after the
//! previous Source is processed, after a pause spread over 50–550 ms so enqueues fall
//! at every phase of the worker's poll timer. Three untimed jobs come first.
//!
//! With `--in-process` the workers run inside the bench process on the same services,
//! as `cosmo serve` runs them beside the API: the embedded queue then wakes them on the
//! enqueue itself instead of at their next poll.

use std::time::Duration;

use chrono::{DateTime, Utc};
use cosmo_shared::domain::ProcessingStatus;
use cosmo_shared::domain::input::SourceInput;
use cosmo_shared::queue::payloads::ProcessSource;
use cosmo_shared::services::Services;
use serde_json::json;

use crate::harness::{self, Child, Line, Queue, Stores};

const WARM_UP: usize = 3;

/// Where the worker runs.
enum Worker {
    Process(Child),
    InProcess {
        stop: tokio::sync::watch::Sender<bool>,
        task: tokio::task::JoinHandle<anyhow::Result<()>>,
    },
}

impl Worker {
    fn check_running(&mut self) -> anyhow::Result<()> {
        match self {
            Self::Process(child) => child.check_running(),
            Self::InProcess { task, .. } => {
                anyhow::ensure!(!task.is_finished(), "the in-process workers stopped");
                Ok(())
            }
        }
    }

    async fn stop(self) {
        match self {
            Self::Process(mut child) => child.stop(),
            Self::InProcess { stop, task } => {
                let _ = stop.send(true);
                let _ = task.await;
            }
        }
    }
}

pub async fn run(jobs: usize, queue: Queue, in_process: bool) -> anyhow::Result<()> {
    let stores = Stores::new(queue).await?;
    let (svc, mut worker) = if in_process {
        let mut config = stores.config();
        config.workers.jobs = vec!["process-source".into()];
        let svc = Services::connect(config).await?;
        let (stop, rx) = tokio::sync::watch::channel(false);
        let stopped = async move {
            let mut rx = rx;
            let _ = rx.wait_for(|stop| *stop).await;
        };
        let task = tokio::spawn(cosmo_workers::process::run(svc.clone(), stopped));
        (svc, Worker::InProcess { stop, task })
    } else {
        let svc = stores.services().await?;
        let child = Child::start(
            "workers",
            &["--jobs", "process-source"],
            stores.dir.path(),
            &stores.env(),
        )?;
        (svc, Worker::Process(child))
    };
    if let cosmo_shared::db::Db::Postgres(pool) = &svc.db {
        // Before its LISTEN is active, a job would wait for the worker's next poll.
        harness::poll(
            "the worker to LISTEN",
            Duration::from_millis(50),
            Duration::from_secs(60),
            || async {
                let listening: i64 = sqlx::query_scalar(
                    "SELECT count(*) FROM pg_stat_activity
                     WHERE datname = current_database() AND query LIKE 'LISTEN %'",
                )
                .fetch_one(pool)
                .await?;
                Ok((listening > 0).then_some(()))
            },
        )
        .await?;
    }
    let mut waits = Vec::with_capacity(jobs);
    let mut enqueues = Vec::with_capacity(jobs);
    for i in 0..WARM_UP + jobs {
        worker.check_running()?;
        let key = tiny_source(&svc, i).await?;
        tokio::time::sleep(Duration::from_millis(50 + (i as u64 * 211) % 500)).await;
        let enqueued_at = svc.clock.now();
        let call = std::time::Instant::now();
        svc.queue.enqueue(ProcessSource::job(&key)).await?;
        let enqueue_took = call.elapsed();
        let started = processed(&svc, &key).await?;
        if i >= WARM_UP {
            waits.push((started - enqueued_at).to_std().unwrap_or_default());
            enqueues.push(enqueue_took);
        }
    }
    worker.stop().await;
    waits.sort();
    enqueues.sort();
    let mean = waits.iter().map(Duration::as_secs_f64).sum::<f64>() / waits.len() as f64;
    Line::new("pickup")
        .text("queue", queue.name())
        .text("workers", if in_process { "in-process" } else { "process" })
        .text("jobs", jobs)
        .text("poll_interval_ms", svc.config.queue.poll_interval_ms)
        .num("p50_ms", harness::pct_ms(&waits, 0.5), 1)
        .num("p95_ms", harness::pct_ms(&waits, 0.95), 1)
        .num("p99_ms", harness::pct_ms(&waits, 0.99), 1)
        .num("max_ms", harness::pct_ms(&waits, 1.0), 1)
        .num("mean_ms", mean * 1e3, 1)
        .num("enqueue_p50_ms", harness::pct_ms(&enqueues, 0.5), 2)
        .print();
    Ok(())
}

/// A one-line note written straight to the graph; returns its entity key.
async fn tiny_source(svc: &Services, i: usize) -> anyhow::Result<String> {
    let input = SourceInput::parse(json!({
        "user_id": "pickup-user",
        "source_type": "text-note",
        "raw_content": { "content": format!("Ping {i}: call Sarah Chen about the budget review.") },
    }))
    .map_err(|e| anyhow::anyhow!("{e:?}"))?;
    let new = input.into_new_source(None, svc.clock.now());
    svc.graph.create_source(&new).await?;
    Ok(new.entity_key)
}

/// Waits until the Source is processed; returns when its processing started.
async fn processed(svc: &Services, key: &str) -> anyhow::Result<DateTime<Utc>> {
    harness::poll(
        "the job to run",
        Duration::from_millis(5),
        Duration::from_secs(60),
        || async {
            let source = svc
                .graph
                .source(key)
                .await?
                .ok_or_else(|| anyhow::anyhow!("source {key} vanished"))?;
            Ok(match source.processing_started_at {
                Some(at) if source.processing_status != ProcessingStatus::Raw => Some(at),
                _ => None,
            })
        },
    )
    .await
}
