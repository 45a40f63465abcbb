//! `cosmo-bench explore`: hybrid retrieval latency over one user's Sources, with one
//! client and with several, the vector signal's recall against exact search, the
//! first question's time (it loads the user's indexes) and memory; on the embedded
//! store or on the Neo4j server at `NEO4J_URI`.

use std::path::PathBuf;
use std::sync::Arc;
use std::time::{Duration as StdDuration, Instant};

use cosmo_pipeline::retrieval;
use cosmo_shared::config::{Config, GraphBackend, Provider};
use cosmo_shared::domain::input::read::ExploreInput;
use cosmo_shared::domain::{SearchScope, Target};
use cosmo_shared::graph::SearchStore;
use cosmo_shared::graph::neo4j::Neo4jGraph;
use cosmo_shared::graph::sqlite::SqliteGraph;
use cosmo_tests::stores;
use serde_json::json;

use crate::harness::{self, Line};
use crate::retrieval::{Embeddings, local_model};
use crate::seed_sources;

/// Which graph store is measured.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum Store {
    Sqlite,
    Neo4j,
}

impl Store {
    pub fn name(self) -> &'static str {
        match self {
            Self::Sqlite => "sqlite",
            Self::Neo4j => "neo4j",
        }
    }
}

/// What is seeded and asked.
pub struct Shape {
    pub sources: usize,
    /// The Sources are spread over this many users (all in one file); the questions
    /// are the first one's.
    pub users: usize,
    pub queries: usize,
    /// 0: each Source is its short summary, one passage. Otherwise each is a chat of
    /// that many turns after the summary line (about 110 characters a turn), split
    /// into passages and embedded as `process-source` does.
    pub turns: usize,
    pub clients: usize,
    pub store: Store,
}

pub async fn run(
    shape: Shape,
    keep: Option<PathBuf>,
    embeddings: Embeddings,
) -> anyhow::Result<()> {
    let Shape {
        sources,
        users,
        queries,
        turns,
        clients,
        store,
    } = shape;
    let temp = tempfile::tempdir()?;
    let dir = keep.unwrap_or_else(|| temp.path().to_owned());
    std::fs::create_dir_all(&dir)?;
    let db = dir.join("cosmo.db");
    let mut config = stores::test_config(&format!("sqlite://{}", db.display()), &db);
    // On Neo4j the users are this run's own (a suffix on their ids), deleted after it.
    let mut suffix = String::new();
    if store == Store::Neo4j {
        let Some(neo4j) = cosmo_tests::neo4j::config_from_env() else {
            eprintln!("explore --store neo4j: skipped (NEO4J_URI is not set)");
            return Ok(());
        };
        config.graph.backend = GraphBackend::Neo4j;
        config.graph.neo4j = neo4j;
        config.graph.neo4j.max_connections = 16;
        suffix = cosmo_tests::neo4j::new_suffix();
    }
    // A kept embedded store seeded before is used as it is (its Sources already there).
    let seeded = store == Store::Sqlite && db.exists();
    if embeddings == Embeddings::Local {
        let Some(model) = local_model()? else {
            eprintln!("explore --embeddings local: skipped, no all-MiniLM-L6-v2 files (see above)");
            return Ok(());
        };
        config.models.providers.embeddings = Provider::Local;
        config.models.local.model_dir = Some(model);
    }
    let svc = stores::connect(config.clone()).await;
    let users = users.max(1);
    let user = |u: usize| format!("bench-user-{u}{suffix}");
    let _cleanup = (store == Store::Neo4j).then(|| Cleanup {
        config: config.clone(),
        users: (0..users).map(user).collect(),
    });
    let seeding = Instant::now();
    let to_seed = if seeded { 0 } else { sources };
    let passages_stored = seed_sources::seed(&svc, to_seed, users, turns, &user).await?;
    let seeded_in = seeding.elapsed();
    let asks = seed_sources::questions(queries + 5);
    let shared = svc.clone();
    let asker = user(0);
    let explore = move |ask: String| {
        let svc = shared.clone();
        let asker = asker.clone();
        async move {
            let input = ExploreInput::parse(json!({
                "user_id": asker,
                "queries": [{ "query": ask }],
                "limit": 10,
            }))
            .map_err(|e| anyhow::anyhow!("{e:?}"))?;
            let t = Instant::now();
            let found = retrieval::explore(&svc, &input, None).await?;
            anyhow::Ok((t.elapsed(), found.sources.map_or(0, |s| s.len())))
        }
    };
    harness::reset_peak();
    let rss_before = harness::rss_mib();
    // The first question loads the user's indexes (text and vectors of each kind).
    let (first, _) = explore(asks[0].clone()).await?;
    let index_mib = harness::rss_mib() - rss_before;
    for ask in &asks[1..5] {
        explore(ask.clone()).await?;
    }
    let mut took: Vec<StdDuration> = Vec::with_capacity(queries);
    let mut returned = 0;
    for ask in &asks[5..] {
        let (t, n) = explore(ask.clone()).await?;
        took.push(t);
        returned += n;
    }
    took.sort();
    // The same questions from `clients` concurrent clients, each asking its share.
    let mut concurrent: Vec<StdDuration> = Vec::with_capacity(queries);
    let mut tasks = tokio::task::JoinSet::new();
    for c in 0..clients.max(1) {
        let mine: Vec<String> = asks[5..]
            .iter()
            .skip(c)
            .step_by(clients.max(1))
            .cloned()
            .collect();
        let explore = explore.clone();
        tasks.spawn(async move {
            let mut took = Vec::new();
            for ask in mine {
                took.push(explore(ask).await?.0);
            }
            anyhow::Ok(took)
        });
    }
    while let Some(done) = tasks.join_next().await {
        concurrent.extend(done??);
    }
    concurrent.sort();
    // Where the time goes: the Source signals' store calls alone, for the same questions;
    // and the vector signal's top 50 against exact search (every stored vector of the
    // user scored). On the embedded store, one opened afresh on the file times building
    // the user's Source indexes; Neo4j keeps its indexes as it writes.
    let scope = SearchScope::user(user(0));
    let probe = svc.models.embedder.embed(&asks[..1]).await?.value.remove(0);
    let mut neo4j = None;
    let (measured, exact, builds): (Arc<dyn SearchStore>, Arc<dyn SearchStore>, _) = match store {
        Store::Sqlite => (
            svc.graph.clone(),
            Arc::new(SqliteGraph::open(&db).await?.with_vector_budget(0)),
            Some(index_builds(&db, &scope, &probe, &asks[0]).await?),
        ),
        Store::Neo4j => {
            let dims = config.models.embedding_dimensions;
            let mut everything = config.graph.neo4j.clone();
            everything.exact_search_max = usize::MAX;
            let graph = Neo4jGraph::connect(&config.graph.neo4j, dims).await?;
            neo4j = Some(graph.clone());
            (
                Arc::new(graph),
                Arc::new(Neo4jGraph::connect(&everything, dims).await?),
                None,
            )
        }
    };
    let (mut vector, mut text) = (Vec::new(), Vec::new());
    let (mut recalled, mut wanted) = (0usize, 0usize);
    for ask in &asks[5..] {
        let embedding = svc
            .models
            .embedder
            .embed(std::slice::from_ref(ask))
            .await?
            .value
            .remove(0);
        let t = Instant::now();
        let found = measured
            .vector_search(&scope, Target::Source, &embedding, 50)
            .await?;
        vector.push(t.elapsed());
        let want = exact
            .vector_search(&scope, Target::Source, &embedding, 50)
            .await?;
        wanted += want.len();
        recalled += want
            .iter()
            .filter(|w| found.iter().any(|h| h.key == w.key))
            .count();
        let t = Instant::now();
        measured
            .text_search(&scope, Target::Source, &retrieval::terms::terms(ask), 50)
            .await?;
        text.push(t.elapsed());
    }
    vector.sort();
    text.sort();
    // Index builds and sizes: the embedded store's (NaN on Neo4j).
    let ((vector_build, text_build), (vector_bytes, text_bytes)) = builds.map_or(
        ((f64::NAN, f64::NAN), (f64::NAN, f64::NAN)),
        |((v, t), (vb, tb))| {
            (
                (v.as_secs_f64() * 1e3, t.as_secs_f64() * 1e3),
                (vb as f64 / 1048576.0, tb as f64 / 1048576.0),
            )
        },
    );
    // On Neo4j: the share of the Source searches above answered from the shared indexes.
    let fetched_share = neo4j.map_or(f64::NAN, |g| {
        let p = g.search_paths();
        p.fetched as f64 / (p.exact + p.fetched + p.fell_back).max(1) as f64
    });
    Line::new("explore")
        .text("store", store.name())
        .text("sources", sources)
        .text("users", users)
        .text("turns", turns)
        .text("embeddings", embeddings.name())
        .num(
            "passages_per_source",
            // (Unknown for a kept store seeded before.)
            if seeded {
                f64::NAN
            } else {
                passages_stored as f64 / sources.max(1) as f64
            },
            1,
        )
        .text("queries", queries)
        .num("first_ms", first.as_secs_f64() * 1e3, 0)
        .num("p50_ms", harness::pct_ms(&took, 0.5), 1)
        .num("p95_ms", harness::pct_ms(&took, 0.95), 1)
        .num("p99_ms", harness::pct_ms(&took, 0.99), 1)
        .num("max_ms", harness::pct_ms(&took, 1.0), 1)
        .text("clients", clients)
        .num("clients_p50_ms", harness::pct_ms(&concurrent, 0.5), 1)
        .num("clients_p95_ms", harness::pct_ms(&concurrent, 0.95), 1)
        .num("clients_p99_ms", harness::pct_ms(&concurrent, 0.99), 1)
        .num("source_vector_p50_ms", harness::pct_ms(&vector, 0.5), 1)
        .num("source_text_p50_ms", harness::pct_ms(&text, 0.5), 1)
        .num(
            "vector_recall_at_50",
            recalled as f64 / wanted.max(1) as f64,
            3,
        )
        .num("index_mib", index_mib, 0)
        .num("vector_index_build_ms", vector_build, 0)
        .num("vector_index_mib", vector_bytes, 1)
        .num("text_index_build_ms", text_build, 0)
        .num("text_index_mib", text_bytes, 1)
        .num("fetched_share", fetched_share, 2)
        .num("peak_mib", harness::peak_mib(), 0)
        .num("mean_sources_returned", returned as f64 / queries as f64, 1)
        .num("seeding_seconds", seeded_in.as_secs_f64(), 1)
        .print();
    Ok(())
}

/// The embedded store's index builds: a store opened afresh on the file searches once
/// per signal (building the user's Source indexes), and reports their size.
async fn index_builds(
    db: &std::path::Path,
    scope: &SearchScope,
    probe: &[f32],
    ask: &str,
) -> anyhow::Result<((StdDuration, StdDuration), (usize, usize))> {
    let fresh = SqliteGraph::open(db).await?;
    let t = Instant::now();
    fresh
        .vector_search(scope, Target::Source, probe, 50)
        .await?;
    let vector = t.elapsed();
    let t = Instant::now();
    fresh
        .text_search(scope, Target::Source, &retrieval::terms::terms(ask), 50)
        .await?;
    let text = t.elapsed();
    Ok(((vector, text), fresh.search_index_bytes()))
}

/// Deletes a Neo4j run's users when dropped, a batch of Sources at a time (one
/// transaction for 10⁵ Sources and their passages would strain the server's memory),
/// then whatever else carries their ids.
struct Cleanup {
    config: Config,
    users: Vec<String>,
}

impl Drop for Cleanup {
    fn drop(&mut self) {
        let (neo4j, users) = (
            self.config.graph.neo4j.clone(),
            std::mem::take(&mut self.users),
        );
        let done = std::thread::spawn(move || {
            let rt = tokio::runtime::Builder::new_current_thread()
                .enable_all()
                .build()?;
            rt.block_on(async {
                let graph = crate::harness::neo4j_client(&neo4j, 1)?;
                for user in &users {
                    loop {
                        let mut rows = graph
                            .execute(neo4rs::query(DELETE_BATCH).param("user_id", user.as_str()))
                            .await?;
                        let mut deleted = 0i64;
                        while let Some(row) = rows.next().await? {
                            deleted = row.get("deleted")?;
                        }
                        if deleted == 0 {
                            break;
                        }
                    }
                    graph
                        .run(neo4rs::query(DELETE_REST).param("user_id", user.as_str()))
                        .await?;
                }
                anyhow::Ok(())
            })
        })
        .join();
        if let Ok(Err(e)) = done {
            eprintln!("could not delete the run's users from Neo4j: {e}");
        }
    }
}

/// Bench harness only: a batch of one user's Sources with their passages.
const DELETE_BATCH: &str = "MATCH (s:Source {user_id: $user_id}) WITH s LIMIT 2000 \
     OPTIONAL MATCH (s)-[:has_passage]->(p:Passage) DETACH DELETE p \
     WITH DISTINCT s DETACH DELETE s RETURN count(s) AS deleted";

/// Bench harness only: the user's other nodes (owner, Extraction records).
const DELETE_REST: &str = "MATCH (n) WHERE n.user_id = $user_id DETACH DELETE n";
