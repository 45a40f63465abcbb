//! `cosmo-bench slow-model`: the pipeline of `cosmo-bench pipeline` against a hosted
//! model that takes `--delay-ms` to answer each chat completion, by `workers` processes
//! and per-process `--concurrency`, so that operators can size a fleet for a hosted
//! model. The model is an in-process server speaking the OpenAI protocol (the bench's
//! own, on loopback): it answers processing, extraction and the note-taking agent with
//! small valid answers after the delay (two entities that pass the extraction filter;
//! the agent's answer makes no tool call, so it is one round). Embeddings stay on the
//! offline embedder.
//!
//! Each run also states its **model-bound ceiling**: a job of kind j makes `calls_j`
//! slow (chat) calls per Source one after the other (counted at the model server), and a
//! process runs `concurrency` jobs of each kind at once, so no fleet of K processes
//! drains faster than `min_j K × concurrency / (calls_j × delay)` Sources per second.
//! The measured drain rate over that ceiling says whether the model's latency is the
//! bottleneck (near 1) or something else is.

use std::time::Duration;

use cosmo_tests::openai::{self, Seen, StandIn};
use serde_json::{Value, json};

use crate::harness::{GraphKind, Line};
use crate::pipeline;

/// The job kinds whose calls go to the model, in pipeline order.
const MODEL_KINDS: [&str; 2] = ["process-source", "extract-entities"];

pub async fn run(
    sources: usize,
    delay_ms: u64,
    workers: &[usize],
    concurrency: &[usize],
) -> anyhow::Result<()> {
    let delay = Duration::from_millis(delay_ms);
    let model = StandIn::start_slow(delay, |seen, _| answer(seen)).await;
    for &k in workers {
        for &c in concurrency {
            anyhow::ensure!(c > 0, "--concurrency must be positive");
            let env = settings(&model.base_url, c);
            let seen_before = model.requests().len();
            let d = pipeline::drain(sources, k, &env, GraphKind::Sqlite).await?;
            let chats = chat_calls(&model.requests()[seen_before..]);
            let per_source =
                |kind: &str| chats.get(kind).copied().unwrap_or(0) as f64 / sources as f64;
            let drain_rate = sources as f64 / d.drained_in.as_secs_f64();
            // The slowest kind bounds the fleet.
            let (bottleneck, ceiling) = MODEL_KINDS
                .iter()
                .map(|kind| {
                    let calls = per_source(kind);
                    let rate = if calls > 0.0 {
                        (k * c) as f64 / (calls * delay.as_secs_f64())
                    } else {
                        f64::INFINITY
                    };
                    (*kind, rate)
                })
                .min_by(|a, b| a.1.total_cmp(&b.1))
                .unwrap_or(("-", f64::INFINITY));
            Line::new("slow-model")
                .text("workers", k)
                .text("concurrency", c)
                .text("sources", sources)
                .text("delay_ms", delay_ms)
                .num("seconds", d.total.as_secs_f64(), 2)
                .num("drain_seconds", d.drained_in.as_secs_f64(), 2)
                .num("drain_sources_per_second", drain_rate, 2)
                .num("process_calls_per_source", per_source("process-source"), 2)
                .num(
                    "extract_calls_per_source",
                    per_source("extract-entities"),
                    2,
                )
                .num("ceiling_sources_per_second", ceiling, 2)
                .num("share_of_ceiling", drain_rate / ceiling, 2)
                .text("bottleneck_kind", bottleneck)
                .print();
        }
    }
    Ok(())
}

/// The settings of the API and every worker: chat tasks on the model at `base_url`,
/// `concurrency` jobs of each model-calling kind at once per process.
fn settings(base_url: &str, concurrency: usize) -> Vec<(String, String)> {
    [
        ("COSMO_MODELS__OPENAI__BASE_URL", base_url.to_owned()),
        ("COSMO_MODELS__OPENAI__API_KEY", "cosmo-bench-model".into()),
        ("COSMO_MODELS__PROVIDERS__PROCESSING", "openai".into()),
        ("COSMO_MODELS__PROVIDERS__EXTRACTION", "openai".into()),
        ("COSMO_MODELS__PROVIDERS__NOTES", "openai".into()),
        (
            "COSMO_JOBS__PROCESS_SOURCE__CONCURRENCY",
            concurrency.to_string(),
        ),
        (
            "COSMO_JOBS__EXTRACT_ENTITIES__CONCURRENCY",
            concurrency.to_string(),
        ),
    ]
    .into_iter()
    .map(|(k, v)| (k.to_owned(), v))
    .collect()
}

/// The slow (chat) calls by the job kind that makes them: processing's transcript
/// cleanup and description for `process-source`, extraction and the note-taking agent
/// for `extract-entities` (the usage ledger also counts the offline embedder's calls).
fn chat_calls(requests: &[Seen]) -> std::collections::BTreeMap<&'static str, usize> {
    let mut by_kind = std::collections::BTreeMap::new();
    for r in requests.iter().filter(|r| r.endpoint == "chat") {
        let kind = match r.schema_name() {
            Some("extraction") => "extract-entities",
            _ if r.has_tools() => "extract-entities",
            _ => "process-source",
        };
        *by_kind.entry(kind).or_default() += 1;
    }
    by_kind
}

/// The user message of a chat request (what the model is asked about).
fn user_text(seen: &Seen) -> &str {
    seen.body["messages"][1]["content"].as_str().unwrap_or("")
}

/// Small valid answers, their token counts estimated at 4 characters a token.
fn answer(seen: &Seen) -> (u16, Value) {
    let prompt = (seen.body["messages"].to_string().len() / 4) as u64;
    let content = match seen.schema_name() {
        Some("source_facts") => json!({
            "summary": first_sentence(user_text(seen)),
            "keywords": ["budget review", "hiring plan", "launch"],
            "tags": ["work", "planning", "meeting"],
        })
        .to_string(),
        Some("extraction") => json!({ "entities": [
            { "kind": "person", "name": "Sarah Chen", "entity_type": null, "confidence": 8,
              "subpoints": ["Sarah Chen leads the budget review.", "She reports to the board.",
                            "She asked for the numbers by Friday."] },
            { "kind": "concept", "name": "budget review", "entity_type": null, "confidence": 7,
              "subpoints": ["The budget review is due next week.", "It covers the hiring plan.",
                            "It needs the launch costs."] },
        ]})
        .to_string(),
        // Transcript cleanup answers with the transcript; the note-taking agent with no
        // tool call (it has nothing to note).
        _ if seen.has_tools() => "Nothing to note.".to_owned(),
        _ => user_text(seen)
            .split_once("\n\n")
            .map_or("Notes.", |(_, transcript)| transcript)
            .to_owned(),
    };
    let completion = (content.len() / 4) as u64;
    openai::chat(&content, prompt, completion)
}

fn first_sentence(text: &str) -> String {
    let body = text.split_once("\n\n").map_or(text, |(_, b)| b);
    let end = body.find(['.', '\n']).map_or(body.len(), |i| i + 1);
    let s: String = body[..end].chars().take(200).collect();
    if s.trim().is_empty() {
        "A note.".to_owned()
    } else {
        s.trim().to_owned()
    }
}
