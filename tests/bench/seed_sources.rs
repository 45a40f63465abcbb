//! The explore benchmark's Sources (`explore.rs`, and the context latency it times in
//! `context.rs`): summaries from a fixed vocabulary of topics and people, each written
//! with its processed content and embeddings as `process-source` would leave it, so that
//! seeding 10⁴–10⁶ Sources takes minutes, not hours of the pipeline.

use chrono::{DateTime, Duration, Utc};
use cosmo_shared::cleanup::passages;
use cosmo_shared::domain::input::SourceInput;
use cosmo_shared::domain::{Passage, ProcessedContent};
use cosmo_shared::services::Services;
use serde_json::json;

use crate::corpus::{PEOPLE, TOPICS, VERBS, summary};

/// The benchmark's questions, such as "What did Priya Patel say about the pricing
/// decision?": every word matches thousands of Sources.
pub fn questions(n: usize) -> Vec<String> {
    (0..n)
        .map(|i| {
            let t = TOPICS[(i * 7) % TOPICS.len()];
            let p = PEOPLE[(i * 5) % PEOPLE.len()];
            format!("What did {p} say about the {t}?")
        })
        .collect()
}

/// Writes `sources` Sources spread evenly over `users` (`user(u)` the id of user u),
/// Source i at 5 minutes × (i / users) after 2026-01-01; each the summary alone
/// (`turns` = 0) or followed by a chat of `turns` turns. Returns the passages stored.
pub async fn seed(
    svc: &Services,
    sources: usize,
    users: usize,
    turns: usize,
    user: &dyn Fn(usize) -> String,
) -> anyhow::Result<usize> {
    let start: DateTime<Utc> = "2026-01-01T00:00:00Z".parse()?;
    let batch = 256;
    let mut passages_stored = 0;
    for chunk in (0..sources).collect::<Vec<_>>().chunks(batch) {
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
        let mut writes = tokio::task::JoinSet::new();
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
            // A server takes writes side by side; the embedded file one at a time.
            if writes.len() >= WRITERS
                && let Some(done) = writes.join_next().await
            {
                done??;
            }
            writes.spawn(write(svc.clone(), new, processed, at));
        }
        while let Some(done) = writes.join_next().await {
            done??;
        }
    }
    Ok(passages_stored)
}

/// How many Sources are written at once while seeding.
const WRITERS: usize = 8;

/// Stores one seeded Source and its processed content.
async fn write(
    svc: Services,
    new: cosmo_shared::domain::NewSource,
    processed: ProcessedContent,
    at: DateTime<Utc>,
) -> anyhow::Result<()> {
    svc.graph.create_source(&new).await?;
    svc.graph
        .save_processed(&new.entity_key, &processed, at)
        .await?;
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
