//! `cosmo-bench decay`: one `decay` run over N semantic nodes (spread over 1,000 users,
//! a third each candidate/active/core) on the embedded store, 30 days after they were
//! created, so every node changes. Seeding runs in a child process (`cosmo-bench seed`)
//! so that the peak memory printed is the decay run's alone.

use std::time::Instant;

use chrono::Duration;
use cosmo_shared::queue::JobKind;
use cosmo_tests::stores;
use cosmo_workers::dispatch::Dispatcher;

use crate::harness::{self, Line};
use crate::{Graph, created};

/// The N nodes, written with one SQL statement (the search-index triggers run).
pub async fn seed(nodes: u64, dir: &std::path::Path) -> anyhow::Result<()> {
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

/// Seeds `graph` for `nodes` into a fresh folder in a child process; returns the folder
/// and how long seeding took.
pub fn seed_in_child(graph: Graph, nodes: u64) -> anyhow::Result<(tempfile::TempDir, f64)> {
    let dir = tempfile::tempdir()?;
    let seeding = Instant::now();
    let status = std::process::Command::new(crate::harness::self_exe()?)
        .args([
            "seed",
            "--graph",
            graph.name(),
            "--nodes",
            &nodes.to_string(),
            "--dir",
        ])
        .arg(dir.path())
        .status()?;
    anyhow::ensure!(status.success(), "seeding failed: {status}");
    Ok((dir, seeding.elapsed().as_secs_f64()))
}

/// The set-based ceiling: on a copy of the same store, one `UPDATE` statement in one
/// transaction doing decay's arithmetic (default parameters) for every node and writing
/// the columns decay changes here (salience, `last_decayed_at`, `updated_at`): no pages,
/// no state changes or events to look for.
async fn ceiling(dir: &std::path::Path) -> anyhow::Result<(u64, f64)> {
    let svc = stores::sqlite(dir).await;
    let cosmo_shared::db::Db::Sqlite(pool) = &svc.db else {
        anyhow::bail!("embedded store expected")
    };
    let at = (created() + Duration::days(30)).timestamp_micros();
    let started = Instant::now();
    let mut tx = pool.begin_with("BEGIN IMMEDIATE").await?;
    let done = sqlx::query(
        "UPDATE nodes SET
            salience = min(max(salience * exp(-(
                CASE WHEN state = 'candidate' AND confidence >= 0.8 THEN 0.0
                     WHEN state = 'candidate'
                        THEN 0.02 / (1.0 + pow(max(recall_frequency, 0), decay_gradient))
                             * (1.0 + (1.0 - min(max(confidence, 0.0), 1.0)) * 2.0)
                     ELSE 0.02 / (1.0 + pow(max(recall_frequency, 0), decay_gradient)) END)
                * (($1 - max(created_at, coalesce(last_decayed_at, created_at),
                             coalesce(last_accessed_at, created_at))) / 1000000.0 / 86400.0)), 0.0), 1.0),
            last_decayed_at = $1, updated_at = $1
         WHERE pinned = 0",
    )
    .bind(at)
    .execute(&mut *tx)
    .await?;
    tx.commit().await?;
    Ok((done.rows_affected(), started.elapsed().as_secs_f64()))
}

/// Copies a store folder (no process has it open) for the ceiling's run.
fn copy_store(from: &std::path::Path) -> anyhow::Result<tempfile::TempDir> {
    let to = tempfile::tempdir()?;
    for entry in std::fs::read_dir(from)? {
        let entry = entry?;
        if entry.file_type()?.is_file() {
            std::fs::copy(entry.path(), to.path().join(entry.file_name()))?;
        }
    }
    Ok(to)
}

pub async fn run(nodes: u64) -> anyhow::Result<()> {
    let (dir, seeded_in) = seed_in_child(Graph::Decay, nodes)?;
    let copy = copy_store(dir.path())?;
    let svc = stores::sqlite(dir.path()).await;
    let before = harness::peak_mib();
    let started = Instant::now();
    let (run, peak_anon) = harness::peak_anon_mib(Dispatcher::new(svc.clone()).run_periodic(
        JobKind::Decay,
        created() + Duration::days(30),
        None,
    ))
    .await;
    let run = run.map_err(|e| anyhow::anyhow!(e.message))?;
    let took = started.elapsed().as_secs_f64();
    let peak = harness::peak_mib();
    drop(svc);
    let (ceiling_rows, ceiling_took) = ceiling(copy.path()).await?;
    Measured {
        store: "sqlite",
        nodes,
        examined: run.examined,
        changed: run.changed,
        archived: run.archived,
        seconds: took,
        ceiling_rows,
        ceiling_seconds: ceiling_took,
        peak_rss_mib: peak,
        peak_anon_mib: peak_anon,
        rss_before_run_mib: before,
        seeding_seconds: seeded_in,
    }
    .print();
    Ok(())
}

/// A decay run beside its ceiling, on either store: its result line.
pub struct Measured {
    pub store: &'static str,
    pub nodes: u64,
    /// The job's counts: memories read, changed and archived.
    pub examined: i64,
    pub changed: i64,
    pub archived: i64,
    pub seconds: f64,
    pub ceiling_rows: u64,
    pub ceiling_seconds: f64,
    pub peak_rss_mib: f64,
    pub peak_anon_mib: f64,
    pub rss_before_run_mib: f64,
    pub seeding_seconds: f64,
}

impl Measured {
    pub fn print(&self) {
        Line::new("decay")
            .text("store", self.store)
            .text("nodes", self.nodes)
            .text("examined", self.examined)
            .text("changed", self.changed)
            .text("archived", self.archived)
            .num("seconds", self.seconds, 2)
            .num("nodes_per_second", self.examined as f64 / self.seconds, 0)
            .text("ceiling_rows", self.ceiling_rows)
            .num("ceiling_seconds", self.ceiling_seconds, 2)
            .num("ratio", self.seconds / self.ceiling_seconds, 2)
            .num("peak_rss_mib", self.peak_rss_mib, 1)
            .num("peak_anon_mib", self.peak_anon_mib, 1)
            .num("rss_before_run_mib", self.rss_before_run_mib, 1)
            .num("seeding_seconds", self.seeding_seconds, 1)
            .print();
    }
}
