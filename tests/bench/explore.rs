//! `cosmo-bench explore`: hybrid retrieval latency over one user's Sources.

use std::time::{Duration as StdDuration, Instant};

use chrono::{DateTime, Duration, Utc};
use cosmo_shared::cleanup::passages;
use cosmo_shared::domain::input::SourceInput;
use cosmo_shared::domain::input::read::ExploreInput;
use cosmo_shared::domain::{Passage, ProcessedContent, SearchScope, Target};
use cosmo_shared::retrieval;
use cosmo_tests::stores;
use serde_json::json;

use crate::corpus::{PEOPLE, TOPICS, VERBS, summary};
use crate::harness::{self, Line};

/// `turns` 0: each Source is its short summary, one passage. Otherwise each is a chat
/// of that many turns after the summary line (about 110 characters a turn), split
/// into passages and embedded as `process-source` does.
pub async fn run(sources: usize, queries: usize, turns: usize) -> anyhow::Result<()> {
    let dir = tempfile::tempdir()?;
    let svc = stores::sqlite(dir.path()).await;
    let start: DateTime<Utc> = "2026-01-01T00:00:00Z".parse()?;
    let seeding = Instant::now();
    let batch = 256;
    let mut passages_stored = 0;
    for chunk in (0..sources).collect::<Vec<_>>().chunks(batch) {
        let summaries: Vec<String> = chunk.iter().map(|&i| summary(i)).collect();
        let contents: Vec<String> = chunk
            .iter()
            .zip(&summaries)
            .map(|(&i, s)| chat(i, s, turns))
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
            let at = start + Duration::minutes(i as i64 * 5);
            let new = SourceInput::parse(json!({
                "user_id": "bench-user",
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
    let mut took: Vec<StdDuration> = Vec::with_capacity(queries);
    let mut returned = 0;
    for (n, ask) in asks.iter().enumerate() {
        let input = ExploreInput::parse(json!({
            "user_id": "bench-user",
            "queries": [{ "query": ask }],
            "limit": 10,
        }))
        .map_err(|e| anyhow::anyhow!("{e:?}"))?;
        let t = Instant::now();
        let found = retrieval::explore(&svc, &input, None).await?;
        if n >= 5 {
            took.push(t.elapsed());
            returned += found.sources.map_or(0, |s| s.len());
        }
    }
    took.sort();
    let pct = |p: f64| harness::pct_ms(&took, p);
    // Where the time goes: the Source signals' store calls alone, for the same questions.
    let scope = SearchScope::user("bench-user");
    let (mut vector, mut text) = (Vec::new(), Vec::new());
    for ask in &asks[5..] {
        let embedding = svc
            .models
            .embedder
            .embed(std::slice::from_ref(ask))
            .await?
            .value
            .remove(0);
        let t = Instant::now();
        svc.graph
            .vector_search(&scope, Target::Source, &embedding, 50)
            .await?;
        vector.push(t.elapsed());
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
        .text("turns", turns)
        .num(
            "passages_per_source",
            passages_stored as f64 / sources.max(1) as f64,
            1,
        )
        .text("queries", queries)
        .num("p50_ms", pct(0.5), 1)
        .num("p95_ms", pct(0.95), 1)
        .num("max_ms", pct(1.0), 1)
        .num("source_vector_p50_ms", harness::pct_ms(&vector, 0.5), 1)
        .num("source_text_p50_ms", harness::pct_ms(&text, 0.5), 1)
        .num("mean_sources_returned", returned as f64 / queries as f64, 1)
        .num("seeding_seconds", seeded_in.as_secs_f64(), 1)
        .print();
    Ok(())
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
