//! `cosmo-bench decay --store neo4j`: the decay measurement on the Neo4j server at
//! `NEO4J_URI`. N semantic nodes of this run's own users (a third each
//! candidate/active/core, deleted after the run), then one `decay` job run 30 days after
//! their creation through the store's set-based pages (every node changes), then the
//! **ceiling** on the same nodes 30 days later: the same arithmetic in one statement per
//! 50,000 nodes (as `CALL { … } IN TRANSACTIONS OF 50000 ROWS` would), writing the
//! properties decay changes here, with no locks, no state changes and no events to look
//! for. The job walks every memory the database holds; `examined` says how many.

use std::time::Instant;

use chrono::Duration;
use cosmo_pipeline::maintenance::decay;
use cosmo_shared::config::MaintenanceConfig;
use cosmo_shared::graph::StoreAdmin;
use cosmo_shared::graph::neo4j::Neo4jGraph;
use cosmo_shared::lifecycle::LifecycleParams;

use crate::created;
use crate::decay::Measured;
use crate::harness;

/// Nodes written, decayed by the ceiling or deleted per statement.
const BATCH: i64 = 50_000;

/// N nodes `bench-<suffix>-node-<i, 9 digits>`, users `bench-user-<i % 1000><suffix>`, as
/// the embedded store's bench seeds them.
const SEED: &str = "
UNWIND range($from, $to - 1) AS i
CREATE (:Semantic {
  entity_key: $prefix + right('00000000' + toString(i), 9),
  user_id: 'bench-user-' + toString(i % 1000) + $suffix,
  kind: 'concept', identity_name: 'concept ' + toString(i), name: 'Concept ' + toString(i),
  created_by: 'bench', salience: 0.5,
  state: CASE i % 3 WHEN 0 THEN 'candidate' WHEN 1 THEN 'active' ELSE 'core' END,
  confidence: 0.5 + toFloat(i % 50) / 100.0, access_count: i % 7, recall_frequency: i % 7,
  last_recall_interval: 0.0, decay_gradient: 1.0, ttl_policy: 'decay', pinned: false,
  created_at: $created, updated_at: $created
})";

/// The ceiling: decay's arithmetic (default parameters) for the next batch of the run's
/// nodes in key order, written without a lock or a look at states and events.
const CEILING: &str = "
MATCH (x:Semantic)
WHERE x.entity_key STARTS WITH $prefix AND x.entity_key > $after
WITH x ORDER BY x.entity_key LIMIT $batch
WITH x, $at AS t,
     coalesce(x.last_decayed_at, x.created_at) AS decayed,
     coalesce(x.last_accessed_at, x.created_at) AS accessed
WITH x, t,
     CASE WHEN x.created_at >= decayed AND x.created_at >= accessed THEN x.created_at
          WHEN decayed >= accessed THEN decayed ELSE accessed END AS since
WITH x, t,
     toFloat(((t.epochSeconds - since.epochSeconds) * 1000000000
              + (t.nanosecond - since.nanosecond)) / 1000) / 1000000.0 / 86400.0 AS days,
     0.02 / (1.0 + (toFloat(CASE WHEN x.recall_frequency > 0 THEN x.recall_frequency ELSE 0 END)
                    ^ x.decay_gradient)) AS base
WITH x, t, days,
     CASE WHEN x.state = 'candidate' AND x.confidence >= 0.8 THEN 0.0
          WHEN x.state = 'candidate' THEN base * (1.0 + (1.0 - x.confidence) * 2.0)
          ELSE base END AS rate
WITH x, t, x.salience * exp(-rate * days) AS s
SET x.salience = CASE WHEN s < 0.0 THEN 0.0 WHEN s > 1.0 THEN 1.0 ELSE s END,
    x.last_decayed_at = t,
    x.updated_at = t
RETURN count(*) AS done, max(x.entity_key) AS last";

/// Deletes a batch of the run's nodes, or of the events about them.
const DELETE_NODES: &str = "
MATCH (x:Semantic) WHERE x.entity_key STARTS WITH $prefix
WITH x LIMIT $batch
DETACH DELETE x
RETURN count(*) AS done";
const DELETE_EVENTS: &str = "
MATCH (e:LifecycleEvent) WHERE e.memory_key STARTS WITH $prefix
WITH e LIMIT $batch
DELETE e
RETURN count(*) AS done";

/// Runs `q` and returns its `done` column (and `last`, when it has one).
async fn batch(graph: &neo4rs::Graph, q: neo4rs::Query) -> anyhow::Result<(i64, Option<String>)> {
    let mut rows = graph.execute(q).await?;
    let mut out = (0, None);
    while let Some(row) = rows.next().await? {
        out = (
            row.get("done")?,
            row.get::<Option<String>>("last").ok().flatten(),
        );
    }
    Ok(out)
}

/// Deletes the run's nodes and their events when dropped.
struct Cleanup {
    graph: neo4rs::Graph,
    prefix: String,
}

impl Drop for Cleanup {
    fn drop(&mut self) {
        let (graph, prefix) = (self.graph.clone(), self.prefix.clone());
        let done = std::thread::spawn(move || {
            let rt = tokio::runtime::Builder::new_current_thread()
                .enable_all()
                .build()?;
            rt.block_on(async {
                for statement in [DELETE_NODES, DELETE_EVENTS] {
                    loop {
                        let q = neo4rs::query(statement)
                            .param("prefix", prefix.as_str())
                            .param("batch", BATCH);
                        if batch(&graph, q).await?.0 == 0 {
                            break;
                        }
                    }
                }
                anyhow::Ok(())
            })
        })
        .join();
        if let Ok(Err(e)) = done {
            eprintln!("could not delete the run's nodes from Neo4j: {e}");
        }
    }
}

pub async fn run(nodes: u64) -> anyhow::Result<()> {
    let Some(config) = cosmo_tests::neo4j::config_from_env() else {
        eprintln!("decay --store neo4j: skipped (NEO4J_URI is not set)");
        return Ok(());
    };
    let store = Neo4jGraph::connect(&config, 384).await?;
    store.migrate().await?;
    let raw = harness::neo4j_client(&config, 1)?;
    let suffix = cosmo_tests::neo4j::new_suffix();
    let prefix = format!("bench{suffix}-node-");
    let _cleanup = Cleanup {
        graph: raw.clone(),
        prefix: prefix.clone(),
    };

    let seeding = Instant::now();
    let total = i64::try_from(nodes)?;
    for from in (0..total).step_by(BATCH as usize) {
        let q = neo4rs::query(SEED)
            .param("from", from)
            .param("to", (from + BATCH).min(total))
            .param("prefix", prefix.as_str())
            .param("suffix", suffix.as_str())
            .param("created", created());
        raw.run(q).await?;
    }
    let seeded_in = seeding.elapsed().as_secs_f64();

    let before = harness::peak_mib();
    let started = Instant::now();
    let (report, peak_anon) = harness::peak_anon_mib(decay::run(
        &store,
        &LifecycleParams::default(),
        MaintenanceConfig::default().batch_size,
        created() + Duration::days(30),
    ))
    .await;
    let report = report.map_err(|e| anyhow::anyhow!(e.message))?;
    let took = started.elapsed().as_secs_f64();
    let peak = harness::peak_mib();

    let ceiling_started = Instant::now();
    let (mut ceiling_rows, mut after) = (0, String::new());
    loop {
        let q = neo4rs::query(CEILING)
            .param("prefix", prefix.as_str())
            .param("after", after.as_str())
            .param("batch", BATCH)
            .param("at", created() + Duration::days(60));
        let (done, last) = batch(&raw, q).await?;
        ceiling_rows += done;
        match last {
            Some(last) if done == BATCH => after = last,
            _ => break,
        }
    }
    let ceiling_took = ceiling_started.elapsed().as_secs_f64();

    Measured {
        store: "neo4j",
        nodes,
        examined: report.examined,
        changed: report.changed,
        archived: report.archived,
        seconds: took,
        ceiling_rows: u64::try_from(ceiling_rows)?,
        ceiling_seconds: ceiling_took,
        peak_rss_mib: peak,
        peak_anon_mib: peak_anon,
        rss_before_run_mib: before,
        seeding_seconds: seeded_in,
    }
    .print();
    Ok(())
}
