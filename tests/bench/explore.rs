//! `cosmo-bench explore`: hybrid retrieval latency over one user's Sources.

use std::time::{Duration as StdDuration, Instant};

use chrono::{DateTime, Duration, Utc};
use cosmo_shared::domain::ProcessedContent;
use cosmo_shared::domain::input::SourceInput;
use cosmo_shared::domain::input::read::ExploreInput;
use cosmo_shared::retrieval;
use cosmo_tests::stores;
use serde_json::json;

const TOPICS: &[&str] = &[
    "hiring plan",
    "budget review",
    "vendor contract",
    "security audit",
    "launch checklist",
    "pricing decision",
    "quarterly roadmap",
    "customer churn",
    "office move",
    "team offsite",
    "data migration",
    "incident review",
    "sales pipeline",
    "design review",
    "onboarding",
    "compliance training",
    "cloud costs",
    "mobile release",
    "board meeting",
    "user research",
];
const PEOPLE: &[&str] = &[
    "Sarah Chen",
    "Priya Patel",
    "Tom Becker",
    "Ana Souza",
    "Wei Zhang",
    "Omar Haddad",
    "Lena Fischer",
    "Kofi Mensah",
    "Maria Rossi",
    "Jonas Berg",
    "Aiko Tanaka",
    "Diego Ruiz",
];
const VERBS: &[&str] = &[
    "discussed",
    "reviewed",
    "postponed",
    "approved",
    "questioned",
    "summarised",
    "planned",
];

/// A summary that differs from its neighbours in topic, people and wording.
fn summary(i: usize) -> String {
    let t = TOPICS[i % TOPICS.len()];
    let a = PEOPLE[(i / TOPICS.len()) % PEOPLE.len()];
    let b = PEOPLE[(i / 7 + 3) % PEOPLE.len()];
    let v = VERBS[(i / 11) % VERBS.len()];
    format!(
        "{a} and {b} {v} the {t} (item {i}); next steps agreed for week {}.",
        i % 52
    )
}

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
            let processed = ProcessedContent {
                content: text.clone(),
                summary: text.clone(),
                keywords: Vec::new(),
                tags: Vec::new(),
                embedding,
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
    let pct = |p: f64| took[((took.len() as f64 - 1.0) * p).round() as usize].as_secs_f64() * 1e3;
    println!(
        "explore sources={sources} queries={queries} p50_ms={:.1} p95_ms={:.1} max_ms={:.1} \
         mean_sources_returned={:.1} seeding_seconds={:.1}",
        pct(0.5),
        pct(0.95),
        pct(1.0),
        returned as f64 / queries as f64,
        seeded_in.as_secs_f64()
    );
    Ok(())
}
