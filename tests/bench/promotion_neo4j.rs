//! `cosmo-bench promotion --store neo4j`: the promotion measurement on the Neo4j server at
//! `NEO4J_URI`, over the graph the embedded store's bench seeds (`promotion.rs`), under
//! keys and users of the run's own, deleted after it. Nodes, Sources and mentions are
//! written in batches of plain `CREATE`s with the properties the promotion statements
//! read; the existing Storylines are created through the store (`create_storyline`), so
//! they are what the store writes. Then one `promote-storylines` and one `promote-macros`
//! run, as on the embedded store. The jobs read every candidate the database holds.

use std::time::Instant;

use chrono::Duration;
use cosmo_shared::domain::NewStoryline;

use crate::created;
use crate::harness::{self, GraphKind, Queue, Stores};

/// Nodes, Sources or mentions written per statement.
const BATCH: i64 = 20_000;

/// Storylines created at once.
const IN_FLIGHT: usize = 8;

/// Node i (`<prefix>node-<i, 9 digits>`) belongs to user i % 1000; the first `$anchors`
/// of each user are anchors (active or core, named "Project …").
const NODES: &str = "
UNWIND range($from, $to - 1) AS i
WITH i, i / 1000 < $anchors AS anchor
CREATE (:Semantic:Concept {
  entity_key: $prefix + 'node-' + right('00000000' + toString(i), 9),
  user_id: 'bench-user-' + toString(i % 1000) + $suffix,
  name: CASE WHEN anchor THEN 'project ' ELSE 'concept ' END + toString(i),
  display_name: CASE WHEN anchor THEN 'Project ' ELSE 'Concept ' END + toString(i),
  description: '', created_by: 'bench',
  source_count: 1, distinct_source_days: 1, distinct_days: [],
  first_mentioned_at: $first_mentioned, last_mentioned_at: $last_mentioned,
  has_meso: false, has_macro: false, is_dirty: false, salience: 0.5,
  state: CASE WHEN anchor THEN CASE i % 2 WHEN 0 THEN 'active' ELSE 'core' END
              ELSE CASE i % 3 WHEN 0 THEN 'candidate' WHEN 1 THEN 'active' ELSE 'core' END END,
  confidence: 0.5 + toFloat(i % 50) / 100.0, access_count: i % 7, recall_frequency: i % 7,
  last_recall_interval: 0.0, decay_gradient: 1.0, ttl_policy: 'decay', pinned: false,
  created_at: $first_mentioned, updated_at: $last_mentioned,
  note_ids: [], note_texts: [], note_added_by: [], note_source_ids: [], note_dates: [],
  note_lifetimes: [], note_expires_at: []
})";

/// Source j (`<prefix>src-<j, 9 digits>`) belongs to user j % 1000; it is that user's
/// Source number k = j / 1000, from k + 1 days before `$now`.
const SOURCES: &str = "
UNWIND range($from, $to - 1) AS j
WITH j, j % 1000 AS u, j / 1000 AS k, $now AS now
WITH j, u, k, now - duration({days: k + 1}) AS at,
     'bench-user-' + toString(u) + ' met the team about project ' + toString(k % $anchors)
       + ' (meeting ' + toString(k) + '): decisions taken, owners named, next steps agreed for week '
       + toString(k % 52) + '.' AS summary
CREATE (:Source {
  entity_key: $prefix + 'src-' + right('00000000' + toString(j), 9),
  user_id: 'bench-user-' + toString(u) + $suffix,
  source_type: 'text-note', idempotency_key: $prefix + toString(j), content_hash: toString(j),
  content: summary, summary: summary, sensitivity: 'normal', processing_status: 'extracted',
  started_at: at, salience: 0.5, state: 'active', confidence: 0.5, access_count: 0,
  recall_frequency: 0, last_recall_interval: 0.0, decay_gradient: 1.0, ttl_policy: 'decay',
  pinned: false, created_at: at, updated_at: at
})";

/// Source (u, k) mentions nodes (u, 2k), (u, 2k + 1) and anchor (u, k % anchors).
const MENTIONS: &str = "
UNWIND range($from, $to - 1) AS j
WITH j, j % 1000 AS u, j / 1000 AS k
MATCH (s:Source {entity_key: $prefix + 'src-' + right('00000000' + toString(j), 9)})
UNWIND [u + 1000 * (2 * k), u + 1000 * (2 * k + 1), u + 1000 * (k % $anchors)] AS node
WITH DISTINCT s, u, node
MATCH (n:Semantic {entity_key: $prefix + 'node-' + right('00000000' + toString(node), 9)})
CREATE (s)-[:mentions {user_id: 'bench-user-' + toString(u) + $suffix, created_at: $now}]->(n)";

/// The anchors' counters from their mentions.
const ANCHOR_COUNTS: &str = "
MATCH (n:Semantic)
WHERE n.entity_key STARTS WITH $prefix + 'node-' AND n.entity_key < $first_ordinary
WITH n, COUNT { (:Source)-[:mentions]->(n) } AS sources
SET n.source_count = sources, n.distinct_source_days = sources";

fn pad(n: i64) -> String {
    format!("{n:09}")
}

pub async fn run(nodes: u64) -> anyhow::Result<()> {
    anyhow::ensure!(
        nodes >= 10_000 && nodes.is_multiple_of(1000),
        "promotion needs a multiple of 1,000 nodes, at least 10,000"
    );
    let Some(stores) = Stores::new(Queue::Sqlite).await?.on(GraphKind::Neo4j) else {
        eprintln!("promotion --store neo4j: skipped (NEO4J_URI is not set)");
        return Ok(());
    };
    let on = stores.neo4j.as_ref().expect("on Neo4j");
    let (suffix, prefix) = (on.suffix.clone(), format!("bench{}-", on.suffix));
    let raw = harness::neo4j_client(&on.config, 1)?;
    let svc = stores.services().await?;

    let seeding = Instant::now();
    let total = i64::try_from(nodes)?;
    let sources = total / 2;
    let anchors = (total / 1000 / 40).max(1);
    let now = created();
    let statement = |text: &'static str, from: i64, to: i64| {
        neo4rs::query(text)
            .param("from", from)
            .param("to", to)
            .param("anchors", anchors)
            .param("prefix", prefix.as_str())
            .param("suffix", suffix.as_str())
            .param("now", now)
            .param("first_mentioned", now - Duration::days(400))
            .param("last_mentioned", now - Duration::days(1))
    };
    for (text, count) in [(NODES, total), (SOURCES, sources), (MENTIONS, sources)] {
        for from in (0..count).step_by(BATCH as usize) {
            raw.run(statement(text, from, (from + BATCH).min(count)))
                .await?;
        }
    }
    raw.run(
        neo4rs::query(ANCHOR_COUNTS)
            .param("prefix", prefix.as_str())
            .param(
                "first_ordinary",
                format!("{prefix}node-{}", pad(1000 * anchors)),
            ),
    )
    .await?;
    // Half the anchors: two Storylines splitting their Sources, through the store.
    let mut storylines = Vec::new();
    for i in 0..1000 * anchors {
        let (u, a) = (i % 1000, i / 1000);
        if (u + a) % 2 == 0 {
            continue;
        }
        for h in 0..2 {
            let source_keys = (0..)
                .map(|k| (k, u + 1000 * k))
                .take_while(|(_, j)| *j < sources)
                // Every Source mentioning the anchor: as its anchor, or as one of its two
                // ordinary nodes (Source k mentions nodes 2k and 2k + 1).
                .filter(|(k, _)| {
                    (k % anchors == a || 2 * k == a || 2 * k + 1 == a) && (k / anchors) % 2 == h
                })
                .map(|(_, j)| format!("{prefix}src-{}", pad(j)))
                .collect();
            storylines.push(NewStoryline {
                storyline_id: format!("{prefix}st-{}-{h}", pad(i)),
                user_id: format!("bench-user-{u}{suffix}"),
                anchor_key: format!("{prefix}node-{}", pad(i)),
                description: format!(
                    "Project {i}, part {}: the team met repeatedly, took decisions and agreed next steps.",
                    h + 1
                ),
                embedding: None,
                source_keys,
                at: now,
            });
        }
    }
    for chunk in storylines.chunks(IN_FLIGHT) {
        let mut set = tokio::task::JoinSet::new();
        for s in chunk {
            let (graph, s) = (svc.graph.clone(), s.clone());
            set.spawn(async move { graph.create_storyline(&s).await.map(drop) });
        }
        while let Some(done) = set.join_next().await {
            done??;
        }
    }
    let seeded_in = seeding.elapsed().as_secs_f64();

    crate::promotion::run_jobs(svc, "neo4j", nodes, seeded_in).await
}
