//! `cosmo-bench promotion`: one `promote-storylines` run, then one `promote-macros` run,
//! over a graph of N nodes on the embedded store, with time and peak memory of each.
//!
//! The graph (seeded in a child process, like decay's): N nodes over 1,000 users, N/2
//! processed Sources, each Source mentioning two ordinary nodes of its user and one of
//! the user's anchors (2.5 % of the nodes, active or core, about 20 Sources each, one
//! Source a day). Half the anchors already have two Storylines covering all their
//! Sources (so they are Macro candidates); the other half have none (Storyline
//! candidates). Each run takes its per-run limit of candidates (`storyline_limit` 100,
//! `macro_limit` 50), so the time is selecting candidates over the whole graph plus a
//! fixed amount of summarising (offline model) and writing.

use std::time::Instant;

use cosmo_shared::queue::JobKind;
use cosmo_shared::services::Services;
use cosmo_tests::stores;
use cosmo_workers::dispatch::Dispatcher;

use crate::harness::{self, Line};
use crate::{Graph, created, decay};

const DAY_MICROS: i64 = 86_400_000_000;

pub async fn seed(nodes: u64, dir: &std::path::Path) -> anyhow::Result<()> {
    anyhow::ensure!(
        nodes >= 10_000 && nodes.is_multiple_of(1000),
        "promotion needs a multiple of 1,000 nodes, at least 10,000 (every user needs an anchor with 5 Sources)"
    );
    let per_user = (nodes / 1000) as i64;
    let anchors = (per_user / 40).max(1);
    let svc = stores::sqlite(dir).await;
    let cosmo_shared::db::Db::Sqlite(pool) = &svc.db else {
        anyhow::bail!("embedded store expected")
    };
    let now = created().timestamp_micros();
    let mut tx = pool.begin().await?;
    // Node i belongs to user i % 1000 and is that user's node number i / 1000; the
    // first `anchors` of each user are anchors.
    sqlx::query(
        "WITH RECURSIVE seq(i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM seq WHERE i < $1 - 1)
         INSERT INTO nodes (entity_key, user_id, kind, identity_name, name, created_by, source_count,
            first_mentioned_at, last_mentioned_at, distinct_source_days, salience, state, confidence,
            access_count, recall_frequency, last_recall_interval, decay_gradient, ttl_policy, created_at, updated_at)
         SELECT printf('node-%09d', i), 'bench-user-' || (i % 1000), 'concept', 'concept ' || i,
            CASE WHEN i / 1000 < $2 THEN 'Project ' ELSE 'Concept ' END || i, 'bench', 1,
            $3 - 400 * $4, $3 - $4, 1, 0.5,
            CASE WHEN i / 1000 < $2 THEN (CASE i % 2 WHEN 0 THEN 'active' ELSE 'core' END)
                 ELSE (CASE i % 3 WHEN 0 THEN 'candidate' WHEN 1 THEN 'active' ELSE 'core' END) END,
            0.5 + (i % 50) / 100.0, i % 7, i % 7, 0, 1.0, 'decay', $3 - 400 * $4, $3 - $4
         FROM seq",
    )
    .bind(nodes as i64)
    .bind(anchors)
    .bind(now)
    .bind(DAY_MICROS)
    .execute(&mut *tx)
    .await?;
    // Source j belongs to user j % 1000; it is that user's Source number k = j / 1000,
    // from k + 1 days before `created()`.
    sqlx::query(
        "WITH RECURSIVE seq(j) AS (SELECT 0 UNION ALL SELECT j + 1 FROM seq WHERE j < $1 - 1),
         src(j, u, k, summary) AS (
            SELECT j, j % 1000, j / 1000, printf('bench-user-%d met the team about project %d (meeting %d): '
                || 'decisions taken, owners named, next steps agreed for week %d.', j % 1000, (j / 1000) % $2, j / 1000,
                (j / 1000) % 52) FROM seq)
         INSERT INTO sources (entity_key, user_id, source_type, raw_content, started_at, sensitivity,
            idempotency_key, content_hash, content, summary, processing_status, salience, state, confidence,
            access_count, recall_frequency, last_recall_interval, decay_gradient, ttl_policy, created_at, updated_at)
         SELECT printf('src-%09d', j), 'bench-user-' || u, 'text-note', json_object('content', summary),
            $3 - (k + 1) * $4, 'normal', printf('src-%09d', j), printf('src-%09d', j), summary, summary,
            'extracted', 0.5, 'active', 0.5, 0, 0, 0, 1.0, 'decay', $3 - (k + 1) * $4, $3 - (k + 1) * $4
         FROM src",
    )
    .bind(nodes as i64 / 2)
    .bind(anchors)
    .bind(now)
    .bind(DAY_MICROS)
    .execute(&mut *tx)
    .await?;
    // Source (u, k) mentions nodes (u, 2k), (u, 2k + 1) and anchor (u, k % anchors).
    sqlx::query(
        "WITH RECURSIVE seq(j) AS (SELECT 0 UNION ALL SELECT j + 1 FROM seq WHERE j < $1 - 1),
         mention(j, node) AS (
            SELECT j, j % 1000 + 1000 * (2 * (j / 1000)) FROM seq
            UNION ALL SELECT j, j % 1000 + 1000 * (2 * (j / 1000) + 1) FROM seq
            UNION ALL SELECT j, j % 1000 + 1000 * ((j / 1000) % $2) FROM seq)
         INSERT OR IGNORE INTO mentions (source_key, entity_key, user_id, created_at)
         SELECT printf('src-%09d', j), printf('node-%09d', node), 'bench-user-' || (j % 1000), $3 FROM mention",
    )
    .bind(nodes as i64 / 2)
    .bind(anchors)
    .bind(now)
    .execute(&mut *tx)
    .await?;
    let first_ordinary = format!("node-{:09}", 1000 * anchors);
    sqlx::query(
        "UPDATE nodes SET source_count = (SELECT count(*) FROM mentions m WHERE m.entity_key = nodes.entity_key),
            distinct_source_days = (SELECT count(*) FROM mentions m WHERE m.entity_key = nodes.entity_key)
         WHERE entity_key < $1",
    )
    .bind(&first_ordinary)
    .execute(&mut *tx)
    .await?;
    // Half the anchors: two Storylines splitting their Sources.
    sqlx::query(
        "WITH RECURSIVE seq(i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM seq WHERE i < $1 - 1),
         half(h) AS (VALUES (0), (1))
         INSERT INTO storylines (storyline_id, user_id, anchor_key, description, salience, state, confidence,
            access_count, recall_frequency, last_recall_interval, decay_gradient, ttl_policy, created_at, updated_at)
         SELECT printf('st-%09d-%d', i, h), 'bench-user-' || (i % 1000), printf('node-%09d', i),
            printf('Project %d, part %d: the team met repeatedly, took decisions and agreed next steps.', i, h + 1),
            0.6, 'active', 0.6, 0, 0, 0, 1.0, 'decay', $2, $2
         FROM seq, half WHERE (i % 1000 + i / 1000) % 2 = 1",
    )
    .bind(1000 * anchors)
    .bind(now)
    .execute(&mut *tx)
    .await?;
    sqlx::query(
        "INSERT INTO storyline_sources (storyline_id, source_key)
         SELECT printf('st-%s-%d', substr(m.entity_key, 6), (CAST(substr(m.source_key, 5) AS INTEGER) / 1000 / $1) % 2),
            m.source_key
         FROM mentions m JOIN storylines st ON st.anchor_key = m.entity_key
         GROUP BY m.entity_key, m.source_key",
    )
    .bind(anchors)
    .execute(&mut *tx)
    .await?;
    sqlx::query(
        "UPDATE storylines SET
            source_count = (SELECT count(*) FROM storyline_sources ss WHERE ss.storyline_id = storylines.storyline_id),
            first_source_at = (SELECT min(s.started_at) FROM storyline_sources ss JOIN sources s ON s.entity_key = ss.source_key
                WHERE ss.storyline_id = storylines.storyline_id),
            last_source_at = (SELECT max(s.started_at) FROM storyline_sources ss JOIN sources s ON s.entity_key = ss.source_key
                WHERE ss.storyline_id = storylines.storyline_id)",
    )
    .execute(&mut *tx)
    .await?;
    sqlx::query(
        "UPDATE nodes SET has_meso = 1 WHERE entity_key IN (SELECT anchor_key FROM storylines)",
    )
    .execute(&mut *tx)
    .await?;
    tx.commit().await?;
    Ok(())
}

pub async fn run(nodes: u64) -> anyhow::Result<()> {
    let (dir, seeded_in) = decay::seed_in_child(Graph::Promotion, nodes)?;
    let svc = stores::sqlite(dir.path()).await;
    run_jobs(svc, "sqlite", nodes, seeded_in).await
}

/// One `promote-storylines` and one `promote-macros` run on `svc`'s seeded graph, each
/// printed as a result line with its time and peak memory.
pub async fn run_jobs(
    svc: Services,
    graph: &str,
    nodes: u64,
    seeded_in: f64,
) -> anyhow::Result<()> {
    let dispatcher = Dispatcher::new(svc);
    for kind in [JobKind::PromoteStorylines, JobKind::PromoteMacros] {
        harness::reset_peak();
        let before = harness::rss_mib();
        let started = Instant::now();
        let run = dispatcher
            .run_periodic(kind, created(), None)
            .await
            .map_err(|e| anyhow::anyhow!(e.message))?;
        let took = started.elapsed().as_secs_f64();
        anyhow::ensure!(run.status == "succeeded", "{kind} failed");
        Line::new("promotion")
            .text("graph", graph)
            .text("job", kind)
            .text("nodes", nodes)
            .text("examined", run.examined)
            .text("changed", run.changed)
            .num("seconds", took, 2)
            .num("peak_rss_mib", harness::peak_mib(), 1)
            .num("rss_before_run_mib", before, 1)
            .num("seeding_seconds", seeded_in, 1)
            .print();
    }
    Ok(())
}
