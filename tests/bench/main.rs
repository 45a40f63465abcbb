//! `cosmo-bench`: measurements for `BENCHMARKS.md`, never assertions.
//!
//! * `cosmo-bench decay --nodes N` seeds N semantic nodes (spread over 1,000 users) into
//!   a fresh embedded store, then runs the `decay` job once over them and prints the
//!   time and the peak memory of the run. Seeding runs in a child process
//!   (`cosmo-bench seed`), so the peak printed is the decay run's alone.
//! * `cosmo-bench explore --sources N` writes N processed Sources for one user into a
//!   fresh embedded store (summaries from a fixed vocabulary, offline embeddings), then
//!   times `explore` (granularity 1) for a fixed set of queries and prints p50/p95.

use std::time::Instant;

use chrono::{DateTime, Duration, Utc};
use clap::{Parser, Subcommand};
use cosmo_shared::queue::JobKind;
use cosmo_tests::stores;
use cosmo_workers::dispatch::Dispatcher;

mod explore;

#[derive(Parser)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Decay over N semantic nodes on the embedded store.
    Decay {
        #[arg(long, default_value_t = 100_000)]
        nodes: u64,
    },
    /// Explore latency over N Sources of one user on the embedded store.
    Explore {
        #[arg(long, default_value_t = 10_000)]
        sources: usize,
        /// Timed queries (after 5 untimed warm-up ones).
        #[arg(long, default_value_t = 100)]
        queries: usize,
    },
    /// Seeds N semantic nodes into the embedded store in `dir` (run by `decay`).
    Seed {
        #[arg(long)]
        nodes: u64,
        #[arg(long)]
        dir: std::path::PathBuf,
    },
}

/// Peak resident memory of this process, in MiB (Linux `VmHWM`).
fn peak_mib() -> f64 {
    std::fs::read_to_string("/proc/self/status")
        .ok()
        .and_then(|s| {
            s.lines()
                .find(|l| l.starts_with("VmHWM:"))
                .map(str::to_owned)
        })
        .and_then(|l| {
            l.split_whitespace()
                .nth(1)
                .and_then(|kb| kb.parse::<f64>().ok())
        })
        .map_or(0.0, |kb| kb / 1024.0)
}

/// When the seeded nodes were created: the decay run is 30 days later.
fn created() -> DateTime<Utc> {
    "2026-01-01T00:00:00Z".parse().expect("a valid time")
}

#[tokio::main]
async fn main() -> anyhow::Result<()> {
    match Cli::parse().command {
        Command::Seed { nodes, dir } => seed(nodes, &dir).await,
        Command::Decay { nodes } => decay(nodes).await,
        Command::Explore { sources, queries } => explore::run(sources, queries).await,
    }
}

async fn seed(nodes: u64, dir: &std::path::Path) -> anyhow::Result<()> {
    let svc = stores::sqlite(dir).await;
    let cosmo_shared::db::Db::Sqlite(pool) = &svc.db else {
        anyhow::bail!("embedded store expected")
    };
    sqlx::query(
        "WITH RECURSIVE seq(i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM seq WHERE i < $1 - 1)
         INSERT INTO nodes (entity_key, user_id, kind, identity_name, name, created_by, salience, state,
            confidence, access_count, recall_frequency, last_recall_interval, decay_gradient, ttl_policy,
            created_at, updated_at)
         SELECT printf('node-%09d', i), 'bench-user-' || (i % 1000), 'concept', 'concept ' || i, 'Concept ' || i,
            'bench', 0.5, CASE i % 3 WHEN 0 THEN 'candidate' WHEN 1 THEN 'active' ELSE 'core' END,
            0.5 + (i % 50) / 100.0, i % 7, i % 7, 0, 1.0, 'decay', $2, $2
         FROM seq",
    )
    .bind(nodes as i64)
    .bind(created().timestamp_micros())
    .execute(pool)
    .await?;
    Ok(())
}

async fn decay(nodes: u64) -> anyhow::Result<()> {
    let dir = tempfile::tempdir()?;
    let seeding = Instant::now();
    let status = std::process::Command::new(std::env::current_exe()?)
        .args(["seed", "--nodes", &nodes.to_string(), "--dir"])
        .arg(dir.path())
        .status()?;
    anyhow::ensure!(status.success(), "seeding failed: {status}");
    let seeded_in = seeding.elapsed();
    let svc = stores::sqlite(dir.path()).await;
    let before = peak_mib();
    let started = Instant::now();
    let run = Dispatcher::new(svc.clone())
        .run_periodic(JobKind::Decay, created() + Duration::days(30), None)
        .await
        .map_err(|e| anyhow::anyhow!(e.message))?;
    let took = started.elapsed();
    println!(
        "decay nodes={nodes} examined={} changed={} archived={} seconds={:.2} nodes_per_second={:.0} \
         peak_rss_mib={:.1} rss_before_run_mib={before:.1} seeding_seconds={:.1}",
        run.examined,
        run.changed,
        run.archived,
        took.as_secs_f64(),
        run.examined as f64 / took.as_secs_f64(),
        peak_mib(),
        seeded_in.as_secs_f64()
    );
    Ok(())
}
