//! `cosmo-bench explore`: hybrid retrieval latency over one user's Sources.

use std::time::{Duration as StdDuration, Instant};

use chrono::{DateTime, Duration, Utc};
use cosmo_shared::domain::input::SourceInput;
use cosmo_shared::domain::input::read::ExploreInput;
use cosmo_shared::domain::{Passage, ProcessedContent};
use cosmo_shared::retrieval;
use cosmo_tests::stores;
use serde_json::json;

use crate::corpus::{PEOPLE, TOPICS, summary};
use crate::harness::{self, Line};

pub async fn run(sources: usize, queries: usize) -> anyhow::Result<()> {
    let dir = tempfile::tempdir()?;
    let svc = stores::sqlite(dir.path()).await;
    let start: DateTime<Utc> = "2026-01-01T00:00:00Z".parse()?;
    let seeding = Instant::now();
    let batch = 256;
    for chunk in (0..sources).collect::<Vec<_>>().chunks(batch) {
        let texts: Vec<String> = chunk.iter().map(|&i| summary(i)).collect();
        let embeddings = svc.models.embedder.embed(&texts).await?.value;
        for ((&i, text), embedding) in chunk.iter().zip(&texts).zip(embeddings) {
            let at = start + Duration::minutes(i as i64 * 5);
            let new = SourceInput::parse(json!({
                "user_id": "bench-user",
                "source_type": "text-note",
                "started_at": at.to_rfc3339(),
                "raw_content": { "content": text },
            }))
            .map_err(|e| anyhow::anyhow!("{e:?}"))?
            .into_new_source(None, at);
            svc.graph.create_source(&new).await?;
            // Short content is one passage, as process-source would store it.
            let processed = ProcessedContent {
                content: text.clone(),
                summary: text.clone(),
                keywords: Vec::new(),
                tags: Vec::new(),
                passages: vec![Passage {
                    text: text.clone(),
                    embedding: embedding.clone(),
                }],
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
    Line::new("explore")
        .text("sources", sources)
        .text("queries", queries)
        .num("p50_ms", pct(0.5), 1)
        .num("p95_ms", pct(0.95), 1)
        .num("max_ms", pct(1.0), 1)
        .num("mean_sources_returned", returned as f64 / queries as f64, 1)
        .num("seeding_seconds", seeded_in.as_secs_f64(), 1)
        .print();
    Ok(())
}
