//! `GET /api/users/{user_id}/stats` and the MCP tool `memory_stats`: the graph store's
//! count of the user's memory (held to the store's listings by the contract suite), the
//! last run of every maintenance job, and the same precise errors as
//! `GET /api/users/{user_id}`.

use cosmo_shared::graph::GraphSnapshot;
use cosmo_shared::queue::JobKind;
use cosmo_tests::http::Api;
use cosmo_tests::mcp::{self, ok, refused};
use reqwest::StatusCode;
use serde_json::{Value, json};

use super::world::{World, day, note};

/// Alex: a profile, one Source through the pipeline, one still raw; Blair: one Source.
async fn two_users(w: &World) -> String {
    w.profile("alex", "Alex Johnson").await;
    w.ingest(note(
        "alex",
        0,
        "Lunch with Sarah Chen from Acme Corp. Sarah Chen leads the hiring plan at Acme \
         Corp. Sarah Chen wants the hiring plan done by March.",
    ))
    .await;
    let raw = w
        .api
        .post_source(&note("alex", 1, "Call the plumber about the leak."))
        .await;
    w.ingest(note(
        "blair",
        0,
        "Blair met Marco Rossi at the vineyard. Marco Rossi grows grapes at the vineyard.",
    ))
    .await;
    raw
}

#[tokio::test]
async fn stats_count_a_users_memory_and_only_theirs() {
    let w = World::new().await;
    two_users(&w).await;
    let decay = w.run(JobKind::Decay, 1).await;

    let before = GraphSnapshot::of_user(&*w.svc.graph, "alex").await.unwrap();
    let stats = w.read("/api/users/alex/stats").await;
    assert_eq!(stats["user_id"], "alex");

    // The store's numbers, as they are.
    let counted = w.svc.graph.memory_stats("alex").await.unwrap();
    let from_store = serde_json::to_value(&counted).unwrap();
    for (field, value) in from_store.as_object().unwrap() {
        assert_eq!(&stats[field.as_str()], value, "{field}");
    }
    assert_eq!(stats["memories"]["source"]["total"], 2);
    assert_eq!(
        stats["sources_by_status"],
        json!({ "raw": 1, "processed": 0, "extracted": 1 })
    );
    assert_eq!(stats["extractions"]["extracted"], 1);
    let nodes = before.nodes.len() as u64;
    let by_kind: u64 = ["person", "concept", "entity"]
        .iter()
        .map(|k| stats["memories"][k]["total"].as_u64().unwrap())
        .sum();
    assert_eq!(by_kind, nodes, "every node of alex, the owner included");
    assert!(
        stats["storage"]["text_chars"].as_u64().unwrap() > 100,
        "{stats}"
    );
    assert!(stats["storage"]["vector_bytes"].as_u64().unwrap() > 0);

    // Nothing of Blair's: she has no profile, and none of her words are counted.
    let blair = w.read("/api/users/blair/stats").await;
    assert_eq!(blair["memories"]["source"]["total"], 1);
    assert_ne!(blair["memories"], stats["memories"]);

    // Every maintenance job is listed; decay with the run it just made.
    let maintenance = stats["maintenance"].as_object().unwrap();
    let kinds: Vec<&str> = JobKind::ALL
        .iter()
        .filter(|k| k.is_maintenance())
        .map(|k| k.as_str())
        .collect();
    let mut listed: Vec<&str> = maintenance.keys().map(String::as_str).collect();
    listed.sort_unstable();
    let mut want = kinds.clone();
    want.sort_unstable();
    assert_eq!(listed, want);
    let recorded = w.svc.runs.recent(Some(JobKind::Decay), 1).await.unwrap();
    assert_eq!(recorded[0].run_id, decay.run_id);
    assert_eq!(
        maintenance["decay"],
        json!({
            "started_at": recorded[0].started_at, "finished_at": recorded[0].finished_at,
            "as_of": day(1), "status": "succeeded",
        })
    );
    for kind in kinds.iter().filter(|k| **k != "decay") {
        assert_eq!(maintenance[*kind], Value::Null, "{kind} never ran");
    }
    assert_eq!(
        blair["maintenance"], stats["maintenance"],
        "runs are global"
    );

    // Reading stats recalls nothing.
    let after = GraphSnapshot::of_user(&*w.svc.graph, "alex").await.unwrap();
    assert_eq!(before, after);
}

#[tokio::test]
async fn stats_refuse_what_the_profile_refuses() {
    let w = World::new().await;
    two_users(&w).await;
    let too_long = "x".repeat(129);
    for user in ["nobody", "a%20b", "bad!id", too_long.as_str()] {
        let (status, stats) = w.api.get(&format!("/api/users/{user}/stats")).await;
        let (profile_status, profile) = w.api.get(&format!("/api/users/{user}")).await;
        assert_eq!(
            (status, &stats["error"]),
            (profile_status, &profile["error"]),
            "{user}"
        );
        assert!(status.is_client_error(), "{user}: {status}");
    }
    let (status, body) = w.api.get("/api/users/nobody/stats").await;
    assert_eq!(
        (status, body["error"]["code"].as_str()),
        (StatusCode::NOT_FOUND, Some("not_found"))
    );
    let (status, body) = w.api.get("/api/users/a%20b/stats").await;
    assert_eq!(
        (status, body["error"]["field"].as_str()),
        (StatusCode::UNPROCESSABLE_ENTITY, Some("user_id"))
    );

    // Another tenant's key: alex does not exist there.
    let (status, body) = w.other_tenant().await.get("/api/users/alex/stats").await;
    assert_eq!(
        (status, body["error"]["code"].as_str()),
        (StatusCode::NOT_FOUND, Some("not_found"))
    );
    let (status, _) = Api::new(&w.base, None).get("/api/users/alex/stats").await;
    assert_eq!(status, StatusCode::UNAUTHORIZED);
}

#[tokio::test]
async fn the_mcp_tool_answers_as_the_endpoint_does() {
    let w = World::new().await;
    two_users(&w).await;
    let (key, _) = w
        .svc
        .directory
        .create_api_key("acme", "acme agent", false, day(0))
        .await
        .unwrap();
    let client = mcp::http(&w.base, Some(&key)).await.expect("MCP over HTTP");

    let rest = w.read("/api/users/alex/stats").await;
    let tool = ok(&client, "memory_stats", json!({ "user_id": "alex" })).await;
    assert_eq!(tool, rest);

    let (_, missing) = w.api.get("/api/users/nobody/stats").await;
    let refusal = refused(&client, "memory_stats", json!({ "user_id": "nobody" })).await;
    assert_eq!(refusal, missing["error"]);
    let refusal = refused(&client, "memory_stats", json!({ "user_id": ".." })).await;
    assert_eq!(
        (refusal["code"].as_str(), refusal["field"].as_str()),
        (Some("validation_failed"), Some("user_id"))
    );
    let refusal = refused(&client, "memory_stats", json!({ "user": "alex" })).await;
    assert_eq!(refusal["code"], "validation_failed");
}
