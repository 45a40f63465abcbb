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

pub async fn run(nodes: u64) -> anyhow::Result<()> {
    let (dir, seeded_in) = seed_in_child(Graph::Decay, nodes)?;
    let svc = stores::sqlite(dir.path()).await;
    let before = harness::peak_mib();
    let started = Instant::now();
    let run = Dispatcher::new(svc.clone())
        .run_periodic(JobKind::Decay, created() + Duration::days(30), None)
        .await
        .map_err(|e| anyhow::anyhow!(e.message))?;
    let took = started.elapsed().as_secs_f64();
    Line::new("decay")
        .text("nodes", nodes)
        .text("examined", run.examined)
        .text("changed", run.changed)
        .text("archived", run.archived)
        .num("seconds", took, 2)
        .num("nodes_per_second", run.examined as f64 / took, 0)
        .num("peak_rss_mib", harness::peak_mib(), 1)
        .num("rss_before_run_mib", before, 1)
        .num("seeding_seconds", seeded_in, 1)
        .print();
    Ok(())
}
