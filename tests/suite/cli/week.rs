//! A back-filled conversation history survives a week of nights, run as an operator
//! runs them: months of chat sessions are posted to a running `cosmo serve` in one go,
//! then every nightly and weekly job runs with `cosmo run-job <kind> --as-of <night>`
//! for each of the seven nights after; nothing is archived, and explore finds the
//! evidence of the history's questions as well as before.

use std::collections::HashMap;
use std::path::Path;

use chrono::{DateTime, Duration, Utc};
use cosmo_tests::conversations::{Conversation, Size, generate};
use cosmo_tests::http::Api;
use cosmo_tests::process;
use reqwest::StatusCode;
use serde_json::{Value, json};

use super::cosmo;

const KEY: &str = "week-test-key";

/// Every periodic job but `reconcile`, in the order a night runs them.
const NIGHTLY: [&str; 8] = [
    "decay",
    "consolidate-episodic",
    "promote-macros",
    "refresh-macros",
    "promote-storylines",
    "refresh-storylines",
    "consolidate-descriptions",
    "cleanup-notes",
];

/// Posts every session for the conversation's first speaker; the Sources' keys by
/// session.
async fn post_history(api: &Api, c: &Conversation) -> Vec<String> {
    let (owner, other) = (c.a.user_id(), c.b.user_id());
    let (status, body) = api
        .put(
            &format!("/api/users/{owner}"),
            &json!({ "full_name": c.a.full_name() }),
        )
        .await;
    assert!(status.is_success(), "{status} {body}");
    let mut keys = Vec::new();
    for s in &c.sessions {
        keys.push(
            api.post_source(&json!({
                "user_id": owner, "participants": [owner, other],
                "source_type": "conversation", "context_type": "chat",
                "started_at": s.started_at.to_rfc3339(),
                "raw_content": { "content": s.jsonl() },
            }))
            .await,
        );
    }
    keys
}

async fn state(api: &Api, key: &str) -> Value {
    let (status, body) = api.get(&format!("/api/sources/{key}")).await;
    assert_eq!(status, StatusCode::OK, "{body}");
    body
}

/// Each question's sessions in explore's top 10, by question.
async fn answers(
    api: &Api,
    c: &Conversation,
    session_of: &HashMap<String, usize>,
) -> Vec<Vec<usize>> {
    let mut out = Vec::new();
    for q in &c.questions {
        let (status, body) = api
            .post(
                "/api/explore",
                &json!({ "user_id": c.a.user_id(), "queries": [{ "query": q.text }], "limit": 10 }),
            )
            .await;
        assert_eq!(status, StatusCode::OK, "{body}");
        out.push(
            body["sources"]
                .as_array()
                .unwrap()
                .iter()
                .filter_map(|s| session_of.get(s["entity_key"].as_str().unwrap()).copied())
                .collect(),
        );
    }
    out
}

fn recall(c: &Conversation, answers: &[Vec<usize>]) -> f64 {
    let sum: f64 = c
        .questions
        .iter()
        .zip(answers)
        .map(|(q, top)| {
            q.evidence.iter().filter(|e| top.contains(e)).count() as f64 / q.evidence.len() as f64
        })
        .sum();
    sum / c.questions.len() as f64
}

/// `cosmo run-job kind --as-of at` against the server's store; its run record.
async fn run_job(dir: &Path, kind: &str, at: DateTime<Utc>) -> Value {
    let db = dir.join("cosmo.db");
    let env = process::env(&format!("sqlite://{}", db.display()), &db, &[]);
    let run = cosmo(&["run-job", kind, "--as-of", &at.to_rfc3339()], dir, &env).await;
    assert!(run.ok(), "{kind} for {at}: {run}");
    serde_json::from_str(&run.stdout).unwrap_or_else(|e| panic!("{kind}: {e}: {run}"))
}

#[tokio::test]
async fn a_back_filled_history_is_still_found_after_a_week_of_nightly_jobs() {
    let dir = tempfile::tempdir().unwrap();
    let (_server, api) = process::embedded(dir.path(), KEY, &[]).await;
    let corpus = generate(Size::Quick);
    let c = &corpus.conversations[0];
    let posted = Utc::now();
    let keys = post_history(&api, c).await;
    for key in &keys {
        api.wait_extracted(key).await;
    }
    let session_of: HashMap<String, usize> = keys
        .iter()
        .cloned()
        .enumerate()
        .map(|(i, k)| (k, i))
        .collect();
    let before = answers(&api, c, &session_of).await;

    // Night n: some hour of the n-th night after the post (the last one less than
    // `episodic_min_age_days`, 7, after it).
    for n in 1..=7 {
        let night = posted + Duration::days(n) - Duration::hours(12);
        for kind in NIGHTLY {
            let run = run_job(dir.path(), kind, night).await;
            assert_eq!(run["status"], "succeeded", "{kind} night {n}: {run}");
            if kind == "consolidate-episodic" {
                assert_eq!(run["archived"], 0, "night {n}: {run}");
            }
        }
    }
    for key in &keys {
        let s = state(&api, key).await;
        assert_ne!(s["state"], "archived", "{s}");
    }
    let after = answers(&api, c, &session_of).await;
    let (r0, r1) = (recall(c, &before), recall(c, &after));
    assert!(
        r0 > 0.5 && r1 >= r0 - 0.02,
        "recall@10 of {} questions: {r0:.3} on the day of the post, {r1:.3} a week later",
        c.questions.len()
    );
}
