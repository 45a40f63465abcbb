//! `cosmo-bench explore`: hybrid retrieval latency over one user's Sources, with one
//! client and with several, the vector signal's recall against exact search, the
//! first question's time (it loads the user's indexes) and memory.

use std::path::PathBuf;
use std::time::{Duration as StdDuration, Instant};

use chrono::{DateTime, Duration, Utc};
use cosmo_shared::cleanup::passages;
use cosmo_shared::config::Provider;
use cosmo_shared::domain::input::SourceInput;
use cosmo_shared::domain::input::read::ExploreInput;
use cosmo_shared::domain::{Passage, ProcessedContent, SearchScope, Target};
use cosmo_shared::graph::ReadStore;
use cosmo_shared::graph::sqlite::SqliteGraph;
use cosmo_shared::retrieval;
use cosmo_tests::stores;
use serde_json::json;

use crate::corpus::{PEOPLE, TOPICS, VERBS, summary};
use crate::harness::{self, Line};
use crate::retrieval::{Embeddings, local_model};

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
    } = shape;
    let temp = tempfile::tempdir()?;
    let dir = keep.unwrap_or_else(|| temp.path().to_owned());
    std::fs::create_dir_all(&dir)?;
    // A kept store seeded before is used as it is (its Sources already there).
    let seeded = dir.join("cosmo.db").exists();
    let db = dir.join("cosmo.db");
    let mut config = stores::test_config(&format!("sqlite://{}", db.display()), &db);
    if embeddings == Embeddings::Local {
        let Some(model) = local_model()? else {
            eprintln!("explore --embeddings local: skipped, no all-MiniLM-L6-v2 files (see above)");
            return Ok(());
        };
        config.models.providers.embeddings = Provider::Local;
        config.models.local.model_dir = Some(model);
    }
    let svc = stores::connect(config).await;
    let users = users.max(1);
    let start: DateTime<Utc> = "2026-01-01T00:00:00Z".parse()?;
    let seeding = Instant::now();
    let batch = 256;
    let mut passages_stored = 0;
    let to_seed = if seeded { 0 } else { sources };
    for chunk in (0..to_seed).collect::<Vec<_>>().chunks(batch) {
        let summaries: Vec<String> = chunk.iter().map(|&i| summary(i / users)).collect();
        let contents: Vec<String> = chunk
            .iter()
            .zip(&summaries)
            .map(|(&i, s)| chat(i / users, s, turns))
            .collect();
        let pieces: Vec<Vec<String>> = contents.iter().map(|c| passages::split(c)).collect();
        let mut texts = summaries.clone();
        texts.extend(pieces.iter().flatten().cloned());
        let mut embeddings = svc.models.embedder.embed(&texts).await?.value.into_iter();
        let summary_vectors: Vec<Vec<f32>> = embeddings.by_ref().take(chunk.len()).collect();
        for (((&i, text), content), (embedding, pieces)) in chunk
            .iter()
            .zip(&summaries)
            .zip(&contents)
            .zip(summary_vectors.into_iter().zip(&pieces))
        {
            let at = start + Duration::minutes((i / users) as i64 * 5);
            let new = SourceInput::parse(json!({
                "user_id": user(i % users),
                "source_type": "text-note",
                "started_at": at.to_rfc3339(),
                "raw_content": { "content": content },
            }))
            .map_err(|e| anyhow::anyhow!("{e:?}"))?
            .into_new_source(None, at);
            svc.graph.create_source(&new).await?;
            let passages: Vec<Passage> = pieces
                .iter()
                .map(|p| Passage {
                    text: p.clone(),
                    embedding: embeddings.next().unwrap_or_default(),
                })
                .collect();
            passages_stored += passages.len();
            let processed = ProcessedContent {
                content: content.clone(),
                summary: text.clone(),
                keywords: Vec::new(),
                tags: Vec::new(),
                passages,
                embedding,
                embedded_with: svc.config.models.embedder_fingerprint(),
            };
            svc.graph
                .save_processed(&new.entity_key, &processed, at)
                .await?;
        }
    }
    let seeded_in = seeding.elapsed();
    let asks: Vec<String> = (0..queries + 5)
        .map(|i| {
            let t = TOPICS[(i * 7) % TOPICS.len()];
            let p = PEOPLE[(i * 5) % PEOPLE.len()];
            format!("What did {p} say about the {t}?")
        })
        .collect();
    let shared = svc.clone();
    let explore = move |ask: String| {
        let svc = shared.clone();
        async move {
            let input = ExploreInput::parse(json!({
                "user_id": user(0),
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
    // and the vector signal's top 50 against exact search (every stored vector read).
    // A store opened afresh on the file times building the user's Source indexes.
    let scope = SearchScope::user(user(0));
    let exact = SqliteGraph::open(&db).await?.with_vector_budget(0);
    let fresh = SqliteGraph::open(&db).await?;
    let probe = svc.models.embedder.embed(&asks[..1]).await?.value.remove(0);
    let t = Instant::now();
    fresh
        .vector_search(&scope, Target::Source, &probe, 50)
        .await?;
    let vector_build = t.elapsed();
    let t = Instant::now();
    fresh
        .text_search(
            &scope,
            Target::Source,
            &retrieval::terms::terms(&asks[0]),
            50,
        )
        .await?;
    let text_build = t.elapsed();
    let (vector_bytes, text_bytes) = fresh.search_index_bytes();
    drop(fresh);
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
        let found = svc
            .graph
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
        svc.graph
            .text_search(&scope, Target::Source, &retrieval::terms::terms(ask), 50)
            .await?;
        text.push(t.elapsed());
    }
    vector.sort();
    text.sort();
    Line::new("explore")
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
        .num("vector_index_build_ms", vector_build.as_secs_f64() * 1e3, 0)
        .num("vector_index_mib", vector_bytes as f64 / 1048576.0, 1)
        .num("text_index_build_ms", text_build.as_secs_f64() * 1e3, 0)
        .num("text_index_mib", text_bytes as f64 / 1048576.0, 1)
        .num("peak_mib", harness::peak_mib(), 0)
        .num("mean_sources_returned", returned as f64 / queries as f64, 1)
        .num("seeding_seconds", seeded_in.as_secs_f64(), 1)
        .print();
    Ok(())
}

/// The `u`-th user's id.
fn user(u: usize) -> String {
    format!("bench-user-{u}")
}

/// Source `i`'s content: its summary, then `turns` lines of chat about the same topics.
fn chat(i: usize, summary: &str, turns: usize) -> String {
    let mut lines = vec![summary.to_owned()];
    for t in 0..turns {
        let who = PEOPLE[(i + t) % PEOPLE.len()];
        let topic = TOPICS[(i * 3 + t * 7) % TOPICS.len()];
        let verb = VERBS[(i + t * 5) % VERBS.len()];
        lines.push(format!(
            "{who}: we {verb} the {topic} again today, turn {t} of item {i}, and agreed to \
             follow up next week."
        ));
    }
    lines.join("\n")
}
