//! `cosmo serve`: every source type through the whole pipeline, the bootstrap key,
//! lazy per-participant extraction, and recovery from a queue outage.

use std::path::Path;

use cosmo_shared::domain::ExtractionStatus;
use cosmo_shared::graph::GraphSnapshot;
use cosmo_shared::graph::ports::*;
use cosmo_shared::graph::sqlite::SqliteGraph;
use cosmo_tests::http::Api;
use cosmo_tests::process::{self, Proc};
use cosmo_tests::{fixtures, wait_for};
use reqwest::StatusCode;
use serde_json::json;

const KEY: &str = "e2e-test-key";

/// The graph file the server writes, opened alongside it (WAL allows a second reader).
async fn graph(dir: &Path) -> SqliteGraph {
    SqliteGraph::open(&dir.join("cosmo.db"))
        .await
        .expect("open the server's database")
}

#[tokio::test]
async fn every_source_type_goes_from_post_to_extracted() {
    let dir = tempfile::tempdir().unwrap();
    let (_server, api) = process::embedded(dir.path(), KEY, &[]).await;
    let (status, profile) = api
        .put("/api/users/alex", &json!({ "full_name": "Alex Johnson" }))
        .await;
    assert_eq!(status, StatusCode::OK, "{profile}");
    assert_eq!(profile["owner_canonical_name"], "alex-johnson");

    let mut keys = Vec::new();
    for (kind, body) in fixtures::every_type("alex") {
        let (status, accepted) = api.post("/api/sources", &body).await;
        assert_eq!(status, StatusCode::ACCEPTED, "{kind}: {accepted}");
        assert_eq!(accepted["status"], "raw");
        let key = accepted["entity_key"].as_str().unwrap().to_owned();
        assert_eq!(accepted["status_url"], format!("/api/sources/{key}"));
        keys.push((kind, key));
    }
    for (kind, key) in &keys {
        let view = api.wait_extracted(key).await;
        assert_eq!(view["source_type"], *kind);
        assert!(
            !view["summary"].as_str().unwrap().is_empty(),
            "{kind} has a summary"
        );
        let keywords = view["keywords"].as_array().unwrap().len();
        let tags = view["tags"].as_array().unwrap().len();
        assert!(
            (1..=10).contains(&keywords) && (3..=5).contains(&tags),
            "{kind}: {view}"
        );
        assert_eq!(view["embedding_dimensions"], 384);
        assert_eq!(view["extractions"][0]["user_id"], "alex");
        assert_eq!(view["extractions"][0]["status"], "extracted");
    }
    let (_, raw) = api
        .get(&format!("/api/sources/{}?include_raw=true", keys[3].1))
        .await;
    assert_eq!(
        raw["raw_content"]["subject"], "Acme Corp security review",
        "raw content is kept as posted"
    );
    let (_, email) = api.get(&format!("/api/sources/{}", keys[3].1)).await;
    assert!(
        !email["content"].as_str().unwrap().contains("wrote:"),
        "quoted replies are stripped from emails"
    );

    let snap = GraphSnapshot::of_user(&graph(dir.path()).await, "alex")
        .await
        .unwrap();
    for name in ["Sarah Chen", "Priya Patel", "Maria Lopez", "Acme Corp"] {
        assert!(
            snap.node_named(name).is_some(),
            "{name} extracted; nodes: {:?}",
            snap.nodes.iter().map(|n| &n.name).collect::<Vec<_>>()
        );
    }
    let sarah = snap.node_named("Sarah Chen").unwrap();
    assert!(
        sarah.counters.source_count >= 2,
        "Sarah leads the meeting and writes the email"
    );
    assert!(
        snap.node_named("tomato").is_some(),
        "the garden note is about tomatoes"
    );
    assert_eq!(snap.nodes.iter().filter(|n| n.is_owner).count(), 1);
}

#[tokio::test]
async fn the_bootstrap_key_is_created_once_and_printed_once() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("cosmo.db");
    let start = || {
        let port = process::free_port();
        let bind = format!("127.0.0.1:{port}");
        let env = process::env(
            &format!("sqlite://{}", db.display()),
            &db,
            &[("COSMO_SERVER__BIND", &bind)],
        );
        (
            Proc::start("cosmo", &["serve"], dir.path(), &env),
            Api::new(format!("http://{bind}"), None),
        )
    };
    let (mut first, api) = start();
    process::wait_healthy(&api).await;
    let key = wait_for(
        "the printed key",
        std::time::Duration::from_secs(10),
        || async {
            first.output().lines().find_map(|l| {
                l.trim()
                    .strip_prefix("cosmo_")
                    .map(|k| format!("cosmo_{k}"))
            })
        },
    )
    .await;
    let (status, _) = api
        .with_key(Some(&key))
        .post("/api/sources", &fixtures::text_note("alex"))
        .await;
    assert_eq!(status, StatusCode::ACCEPTED);
    assert!(
        first.terminate(std::time::Duration::from_secs(20)),
        "cosmo serve stops on SIGTERM"
    );

    let (second, api) = start();
    process::wait_healthy(&api).await;
    assert!(first.output().contains("created an API key"));
    assert!(
        !second.output().contains("created an API key"),
        "no second key is created or shown"
    );
    let (status, _) = api.with_key(Some(&key)).get("/api/users/alex").await;
    assert_eq!(
        status,
        StatusCode::OK,
        "the first key still works after a restart"
    );
}

#[tokio::test]
async fn team_sources_are_extracted_lazily_for_each_participant() {
    let dir = tempfile::tempdir().unwrap();
    let (_server, api) = process::embedded(dir.path(), KEY, &[]).await;
    let key = api
        .post_source(&fixtures::team_meeting("alex", &["bob", "carol"]))
        .await;
    let view = api.wait_extracted(&key).await;
    assert_eq!(view["participants"], json!(["alex", "bob", "carol"]));
    assert_eq!(
        view["extractions"].as_array().unwrap().len(),
        1,
        "only the owner is extracted eagerly"
    );
    let g = graph(dir.path()).await;
    assert!(g.nodes_for_user("bob", None, 10).await.unwrap().is_empty());

    // Bob reads the source: his extraction runs, into his own nodes.
    let (status, _) = api.get(&format!("/api/sources/{key}?as_user=bob")).await;
    assert_eq!(status, StatusCode::OK);
    wait_for(
        "bob's extraction",
        std::time::Duration::from_secs(60),
        || async {
            let r = g.extraction(&key, "bob").await.unwrap();
            r.filter(|r| r.status == ExtractionStatus::Extracted)
        },
    )
    .await;
    let alex_nodes = g.nodes_for_user("alex", None, 500).await.unwrap();
    let bob_nodes = g.nodes_for_user("bob", None, 500).await.unwrap();
    assert!(!bob_nodes.is_empty());
    let sarah = |nodes: &[cosmo_shared::domain::SemanticNode]| {
        nodes
            .iter()
            .find(|n| n.identity.name == "sarah-chen")
            .map(|n| n.entity_key.clone())
    };
    assert!(
        sarah(&bob_nodes).is_some() && sarah(&bob_nodes) != sarah(&alex_nodes),
        "separate nodes per user"
    );

    // Carol never touched it; Dave is not a participant.
    assert!(g.extraction(&key, "carol").await.unwrap().is_none());
    assert!(
        g.nodes_for_user("carol", None, 10)
            .await
            .unwrap()
            .is_empty()
    );
    let (status, body) = api.get(&format!("/api/sources/{key}?as_user=dave")).await;
    assert_eq!(
        (status, body["error"]["code"].as_str()),
        (StatusCode::FORBIDDEN, Some("forbidden"))
    );
    let (status, _) = api
        .post(
            &format!("/api/sources/{key}/extractions"),
            &json!({ "user_id": "dave" }),
        )
        .await;
    assert_eq!(status, StatusCode::FORBIDDEN);
    assert!(g.extraction(&key, "dave").await.unwrap().is_none());

    // Carol asks explicitly.
    let (status, record) = api
        .post(
            &format!("/api/sources/{key}/extractions"),
            &json!({ "user_id": "carol" }),
        )
        .await;
    assert_eq!(
        (status, record["status"].as_str()),
        (StatusCode::ACCEPTED, Some("pending"))
    );
    wait_for(
        "carol's extraction",
        std::time::Duration::from_secs(60),
        || async {
            g.extraction(&key, "carol")
                .await
                .unwrap()
                .filter(|r| r.status == ExtractionStatus::Extracted)
        },
    )
    .await;
}

#[tokio::test]
async fn a_participant_has_their_team_sources_extracted_in_a_batch() {
    let dir = tempfile::tempdir().unwrap();
    let (_server, api) = process::embedded(dir.path(), KEY, &[]).await;
    let mut team = Vec::new();
    for topic in [
        "the Berlin launch",
        "the hiring plan",
        "the security review",
    ] {
        let body = json!({
            "user_id": "alex", "team_id": "team-launch", "participants": ["bob"],
            "source_type": "text-note",
            "raw_content": { "content": format!("Team call with Sarah Chen about {topic}.") },
        });
        team.push(api.post_source(&body).await);
    }
    let solo = api
        .post_source(&json!({
            "user_id": "alex", "source_type": "text-note",
            "raw_content": { "content": "Alex alone with Sarah Chen." },
        }))
        .await;
    for key in team.iter().chain([&solo]) {
        api.wait_extracted(key).await;
    }
    team.sort();
    let g = graph(dir.path()).await;
    let batch = |body: serde_json::Value| {
        let api = api.clone();
        async move { api.post("/api/users/bob/extractions", &body).await }
    };

    // Two at a time: the first two by key, then the third, then none.
    let (status, first) = batch(json!({ "limit": 2 })).await;
    assert_eq!(status, StatusCode::ACCEPTED, "{first}");
    assert_eq!(first, json!({ "requested": team[..2], "more": true }));
    let (_, second) = batch(json!({ "limit": 2 })).await;
    assert_eq!(second, json!({ "requested": team[2..], "more": false }));
    let (status, none) = batch(serde_json::Value::Null).await;
    assert_eq!(
        (status, none),
        (
            StatusCode::ACCEPTED,
            json!({ "requested": [], "more": false })
        ),
        "asked for once: never twice"
    );
    for key in &team {
        wait_for(
            "bob's batch extraction",
            std::time::Duration::from_secs(60),
            || async {
                g.extraction(key, "bob")
                    .await
                    .unwrap()
                    .filter(|r| r.status == ExtractionStatus::Extracted)
            },
        )
        .await;
    }
    assert!(
        g.extraction(&solo, "bob").await.unwrap().is_none(),
        "not his to read, not his to extract"
    );

    // Refused, asking for nothing.
    for (body, field) in [
        (json!({ "limit": 0 }), "limit"),
        (json!({ "limit": 1001 }), "limit"),
        (json!({ "limit": "all" }), "limit"),
        (json!({ "every": true }), "every"),
    ] {
        let (status, answer) = batch(body.clone()).await;
        assert_eq!(
            (status, answer["error"]["field"].as_str()),
            (StatusCode::UNPROCESSABLE_ENTITY, Some(field)),
            "{body}: {answer}"
        );
    }
    let (status, _) = api.post("/api/users/nobody/extractions", &json!({})).await;
    assert_eq!(status, StatusCode::NOT_FOUND, "not a user of the tenant");
}

#[tokio::test]
async fn a_source_the_queue_never_got_is_processed_once_the_queue_is_back() {
    let dir = tempfile::tempdir().unwrap();
    let (_server, api) = process::embedded(
        dir.path(),
        KEY,
        &[
            ("COSMO_SCHEDULER__RECONCILE", "*/2 * * * * *"),
            ("COSMO_RECONCILER__STUCK_AFTER_SECS", "1"),
        ],
    )
    .await;
    let g = graph(dir.path()).await;
    // Take the queue away: its table disappears under the running server.
    sqlx::query("ALTER TABLE Jobs RENAME TO Jobs_offline")
        .execute(g.pool())
        .await
        .unwrap();
    let (status, body) = api.post("/api/sources", &fixtures::text_note("alex")).await;
    sqlx::query("ALTER TABLE Jobs_offline RENAME TO Jobs")
        .execute(g.pool())
        .await
        .unwrap();
    assert_eq!(status, StatusCode::SERVICE_UNAVAILABLE, "{body}");
    let key = body["error"]["detail"]["entity_key"]
        .as_str()
        .expect("the answer names the stored source")
        .to_owned();
    assert!(
        g.source(&key).await.unwrap().is_some(),
        "the source was accepted and stored"
    );
    // Nothing re-posts it; the reconciler finds it.
    api.wait_extracted(&key).await;
}

/// Another process sharing the file (an operator's `cosmo migrate` after an upgrade)
/// changes the schema while the server runs: the server's open connections must keep
/// serving writes.
#[tokio::test]
async fn a_migration_by_another_process_does_not_break_the_running_server() {
    let dir = tempfile::tempdir().unwrap();
    let (_server, api) = process::embedded(dir.path(), KEY, &[]).await;
    let g = graph(dir.path()).await;
    for round in 0..4 {
        let text = format!("Round {round}: lunch with Sarah Chen about the hiring plan.");
        let (status, body) = api.post("/api/sources", &text_note("alex", &text)).await;
        assert_eq!(status, StatusCode::ACCEPTED, "before the change: {body}");
        sqlx::raw_sql(sqlx::AssertSqlSafe(format!(
            "CREATE TABLE added_by_a_migration_{round} (x INTEGER)"
        )))
        .execute(g.pool())
        .await
        .unwrap();
        for n in 0..3 {
            let text = format!("Round {round}, note {n}: Sarah Chen sent the budget.");
            let (status, body) = api.post("/api/sources", &text_note("alex", &text)).await;
            assert_eq!(status, StatusCode::ACCEPTED, "after the change: {body}");
        }
    }
}

fn text_note(user: &str, text: &str) -> serde_json::Value {
    json!({ "user_id": user, "source_type": "text-note", "raw_content": { "content": text } })
}

/// With `RUST_BACKTRACE=1` (common in operators' shells and images) an outage's 503 and
/// a bug's 500 each log one short line, the error's chain of causes, and no backtrace:
/// errors stay cheap to log, however many there are.
#[tokio::test]
async fn errors_log_one_short_line_even_with_rust_backtrace() {
    use sqlx::{Connection, Executor, SqliteConnection};

    let dir = tempfile::tempdir().unwrap();
    let (server, api) = process::embedded(dir.path(), KEY, &[("RUST_BACKTRACE", "1")]).await;
    let url = format!("sqlite://{}", dir.path().join("cosmo.db").display());
    let mut other = SqliteConnection::connect(&url).await.unwrap();

    // An outage: another connection holds the write lock.
    other.execute("BEGIN IMMEDIATE").await.unwrap();
    let (status, _) = api
        .post("/api/sources", &fixtures::text_note("alice"))
        .await;
    assert_eq!(status, StatusCode::SERVICE_UNAVAILABLE);
    other.execute("ROLLBACK").await.unwrap();
    // A bug: the graph's table of Sources is gone.
    other
        .execute("ALTER TABLE sources RENAME TO sources_gone")
        .await
        .unwrap();
    let (status, _) = api.get("/api/sources/any-key").await;
    assert_eq!(status, StatusCode::INTERNAL_SERVER_ERROR);

    let lines = wait_for(
        "both errors logged",
        std::time::Duration::from_secs(10),
        || async {
            let output = server.output();
            let lines: Vec<String> = output
                .lines()
                .filter(|l| l.contains("a store is out of reach") || l.contains("internal error"))
                .map(str::to_owned)
                .collect();
            (lines.len() >= 2).then_some(lines)
        },
    )
    .await;
    for line in &lines {
        assert!(line.len() < 2048, "{} bytes: {line}", line.len());
    }
    assert!(
        lines.iter().any(|l| l.contains("sources")),
        "the 500's line names its cause: {lines:?}"
    );
    let output = server.output();
    assert!(
        !output.to_lowercase().contains("stack backtrace"),
        "no backtrace in the log: {output}"
    );
}
