//! `DELETE /api/users/{id}`: the user's graph, their team Sources (and what others drew
//! from them), their part in others' team Sources, queued jobs, usage rows and the
//! directory entry — and neither their words nor their id are left in the file.

use cosmo_tests::traces;
use reqwest::StatusCode;
use serde_json::json;

use super::erasure::{assert_nowhere, delete, jobs_mentioning};
use super::world::{World, day, node_named, note};

#[tokio::test]
async fn deleting_a_user_removes_every_trace() {
    let w = World::new().await;
    w.profile("quentin", "Quentin Marsh").await;
    w.profile("bea", "Bea Stone").await;
    w.ingest(note(
        "quentin",
        0,
        "Had lunch with Priya Patel about the zorblax launch. Priya Patel owns the zorblax timeline. She moved it to May.",
    ))
    .await;
    let team = |owner: &str, other: &str, text: &str| {
        json!({ "user_id": owner, "team_id": "crew", "participants": [other], "source_type": "text-note",
                "started_at": day(1).to_rfc3339(), "raw_content": { "content": text } })
    };
    let his_team = w
        .ingest(team(
            "quentin",
            "bea",
            "Crew sync with Priya Patel about the zorblax rollout. Priya Patel will lead the zorblax rollout. She trained all summer.",
        ))
        .await;
    w.extract(&his_team, "bea").await;
    node_named(&w, "bea", "Priya Patel").await;
    let her_team = w
        .ingest(team(
            "bea",
            "quentin",
            "Crew meeting with Olga Berg about the sailing boat. Olga Berg will fix the sails. She trained all summer.",
        ))
        .await;
    w.extract(&her_team, "quentin").await;
    let her_own = w
        .ingest(note(
            "bea",
            2,
            "Planted tulips with Olga Berg. Olga Berg is the new gardener at the park. She moved from Berlin.",
        ))
        .await;
    w.api
        .post(
            "/api/facts",
            &json!({ "user_id": "quentin", "text": "The zorblax code is 7" }),
        )
        .await;
    w.explore("quentin", "zorblax", 1).await;
    w.ok(
        "/api/context",
        json!({ "user_id": "quentin", "message": "sailing boat" }),
    )
    .await;
    let usage = |user: &'static str| {
        let svc = w.svc.clone();
        async move {
            let rows = svc.usage.summary(None, day(-1), day(9999)).await.unwrap();
            rows.iter()
                .filter(|r| r.user_id == user)
                .map(|r| r.calls)
                .sum::<i64>()
        }
    };
    let calls = usage("quentin").await;
    assert!(calls > 0, "the premise: quentin has usage rows");
    assert!(!jobs_mentioning(&w, "quentin").await.is_empty());
    assert!(
        !traces::columns_holding(&w.pool(), "zorblax")
            .await
            .is_empty()
    );
    let bea_before = usage("bea").await;

    let (status, report) = delete(&w, "/api/users/quentin").await;
    assert_eq!(status, StatusCode::OK, "{report}");
    assert_eq!(
        report["usage_rows"].as_i64(),
        Some(calls),
        "one row per call: {report}"
    );
    assert_eq!(
        report["jobs_purged"], 4,
        "processing and his extraction of his note and of his team Source: {report}"
    );
    assert_eq!(usage("quentin").await, 0);
    assert_eq!(usage("bea").await, bea_before, "bea's usage stays");
    assert_eq!(jobs_mentioning(&w, "quentin").await, Vec::<String>::new());
    assert_eq!(jobs_mentioning(&w, &his_team).await, Vec::<String>::new());
    assert_eq!(
        w.api.get("/api/users/quentin").await.0,
        StatusCode::NOT_FOUND
    );
    let (status, _) = w
        .api
        .post(
            "/api/explore",
            &json!({ "user_id": "quentin", "queries": [{ "query": "zorblax" }] }),
        )
        .await;
    assert_eq!(status, StatusCode::NOT_FOUND);

    // Bea keeps her own Sources (without him) and loses what she drew from his.
    assert_eq!(
        w.api.get(&format!("/api/sources/{his_team}")).await.0,
        StatusCode::NOT_FOUND
    );
    let hers = w.read(&format!("/api/sources/{her_team}")).await;
    assert_eq!(hers["participants"], json!(["bea"]), "{hers}");
    let extractions: Vec<&str> = hers["extractions"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| e["user_id"].as_str().unwrap())
        .collect();
    assert_eq!(extractions, ["bea"]);
    w.read(&format!("/api/sources/{her_own}")).await;
    let bea = cosmo_shared::graph::GraphSnapshot::of_user(&*w.svc.graph, "bea")
        .await
        .unwrap();
    assert!(
        bea.node_named("Priya Patel").is_none(),
        "only from his Source"
    );
    assert!(bea.node_named("Olga Berg").is_some());

    assert_nowhere(&w, "zorblax").await;
    assert_nowhere(&w, "quentin").await;
}
